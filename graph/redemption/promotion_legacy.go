package redemption

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The legacy (deprecated, still served) promotion endpoints:
// POST /v1/promotions/validation and POST /v1/promotions/tiers/{id}/redemption.

// maxLegacyPromotions is how many of the newest available tiers the
// legacy validation examines (the real service's 150).
const maxLegacyPromotions = 150

// PromotionsValidation is the answer of POST /v1/promotions/validation:
// the tiers that apply to the order, each computed on the order alone.
type PromotionsValidation struct {
	Valid      bool             `json:"valid"`
	TrackingID *string          `json:"tracking_id,omitempty"`
	Promotions []map[string]any `json:"promotions"`
}

// ValidatePromotions serves POST /v1/promotions/validation and
// validatePromotions: of the 150 newest tiers that are active, begun and
// not expired in an active campaign, those whose checks and rules pass
// and whose discount takes something off the order, each computed on
// the original order (by hierarchy). valid: at least one applies.
func ValidatePromotions(ctx context.Context, in *VoucherRedemptionInput) (*PromotionsValidation, error) {
	if in == nil {
		in = &VoucherRedemptionInput{}
	}
	req := &redemptionRequest{order: in.Order, customer: in.Customer, trackingID: in.TrackingID,
		metadata: in.Metadata, expand: map[string]bool{}, legacy: true}
	if err := req.check(); err != nil {
		return nil, err
	}
	var out *PromotionsValidation
	run := func(ctx context.Context) error {
		var err error
		out, err = validatePromotions(ctx, req)
		return err
	}
	return out, runValidation(ctx, req, run)
}

func validatePromotions(ctx context.Context, req *redemptionRequest) (*PromotionsValidation, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	now := clock.Now()
	ids, err := c.PromotionTier.Query().Where(promotiontier.Active(true),
		promotiontier.Or(promotiontier.StartDateIsNil(), promotiontier.StartDateLTE(now)),
		promotiontier.Or(promotiontier.ExpirationDateIsNil(), promotiontier.ExpirationDateGT(now)),
		promotiontier.HasCampaignWith(campaign.Active(true))).
		Order(ent.Desc(promotiontier.FieldCreatedAt), ent.Desc(promotiontier.FieldID)).Limit(maxLegacyPromotions).IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing available promotion tiers: %w", err)
	}
	rules, err := stacking.ProjectRules(ctx)
	if err != nil {
		return nil, err
	}
	e := &evaluation{req: req, now: now, rules: rules}
	object := "promotion_tier"
	for _, id := range ids {
		r := &RedeemableInput{Object: &object, ID: id}
		req.redeemables = append(req.redeemables, r)
		e.states = append(e.states, &redeemableState{input: r})
	}
	if err := e.loadEach(ctx); err != nil { // qualify.go
		return nil, err
	}
	if e.order, err = e.startOrder(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(e.states, func(a, b *redeemableState) int {
		if a.tier == nil || b.tier == nil {
			return 0
		}
		return a.tier.Hierarchy - b.tier.Hierarchy
	})
	res := &PromotionsValidation{TrackingID: e.trackingID, Promotions: []map[string]any{}}
	for _, s := range e.states {
		if err := e.checkRedeemable(ctx, s); err != nil {
			return nil, err
		}
		if s.failure != nil {
			continue
		}
		o, err := e.req.discountOrder()
		if err != nil {
			return nil, err
		}
		outs, _ := discount.Stack(o, e.rules, []discount.Candidate{e.candidateOf(s)})
		if outs[0].Status != discount.StatusApplicable || outs[0].Result.Total == 0 {
			continue // a tier that takes nothing off does not apply
		}
		res.Promotions = append(res.Promotions, e.legacyPromotion(s, o, outs[0]))
	}
	res.Valid = len(res.Promotions) > 0
	return res, nil
}

// legacyPromotion is one entry of the legacy validation's promotions.
func (e *evaluation) legacyPromotion(s *redeemableState, o *discount.Order, out discount.Outcome) map[string]any {
	t := s.tier
	entry := map[string]any{"valid": true, "applicable_to": e.applicableTo(s, &out.Result), "inapplicable_to": s.inapplicableTo(),
		"tracking_id": e.trackingID, "order": newOrderView(o, e.req.order, nil, e.customer), "id": t.ID,
		"name": t.Name, "discount": s.tierDiscount()["discount"], "hierarchy": t.Hierarchy,
		"discount_amount": out.Result.Total, "applied_discount_amount": out.Result.Total,
		"metadata": shape.OrEmptyMap(t.Metadata), "object": "promotion_tier"}
	if t.Banner != nil {
		entry["banner"] = *t.Banner
	}
	if t.StartDate != nil {
		entry["start_date"] = clock.Format(*t.StartDate)
	}
	if t.ExpirationDate != nil {
		entry["expiration_date"] = clock.Format(*t.ExpirationDate)
	}
	if cmp := t.Edges.Campaign; cmp != nil {
		c := map[string]any{"id": cmp.ID, "start_date": nil, "expiration_date": nil, "active": cmp.Active, "object": "campaign"}
		if cmp.StartDate != nil {
			c["start_date"] = clock.Format(*cmp.StartDate)
		}
		if cmp.ExpirationDate != nil {
			c["expiration_date"] = clock.Format(*cmp.ExpirationDate)
		}
		entry["campaign"] = c
	}
	return entry
}

// RedeemPromotionTier serves the legacy POST /v1/promotions/tiers/{id}/redemption
// and redeemPromotionTier: one redemption of the tier, no parent, in its
// own transaction. An unknown tier is a 404 (nothing stored); a tier
// that cannot be used stores a failed redemption and returns its failure.
func RedeemPromotionTier(ctx context.Context, id string, in *VoucherRedemptionInput) (*VoucherRedemptionResult, error) {
	req, err := tierRequest(id, in)
	if err != nil {
		return nil, err
	}
	leave, err := store.EnterRows(ctx, req.voucherIDs())
	if err != nil {
		return nil, observe.Redemption(ctx, false, err)
	}
	defer leave()
	var out *VoucherRedemptionResult
	err = store.WithinTxRetried(ctx, func(ctx context.Context) error {
		e, err := evaluate(ctx, req, redeem)
		if err != nil {
			return err
		}
		s := e.states[0]
		if s.tier == nil {
			return apperr.NotFound("promotion_tier", id)
		}
		if !e.valid {
			r, err := e.newWriter(ctx).failedEntry(ctx, s, e.outcomes[0].Key, nil)
			if err != nil {
				return err
			}
			out = &VoucherRedemptionResult{Redemption: r, Failure: e.failureOf(s, e.outcomes[0].Key, r.ID)}
			return nil
		}
		out, err = e.recordTierRedemption(ctx)
		return err
	})
	return out, observe.Redemption(ctx, out != nil && out.Failure != nil, err)
}

// tierRequest is the legacy request for one promotion tier (no gift, no reward).
func tierRequest(id string, in *VoucherRedemptionInput) (*redemptionRequest, error) {
	if in != nil && (in.Gift != nil || in.Reward != nil) {
		return nil, apperr.InvalidPayload("A promotion tier takes neither gift nor reward")
	}
	req, err := legacyRequest(id, in)
	if err != nil {
		return nil, err
	}
	object := "promotion_tier"
	req.redeemables[0].Object = &object
	return req, nil
}

// recordTierRedemption stores a valid legacy tier redemption.
func (e *evaluation) recordTierRedemption(ctx context.Context) (*VoucherRedemptionResult, error) {
	s, w := e.states[0], e.newWriter(ctx)
	id := pulid.PrefixRedemption + pulid.Hex(9)
	stored, err := w.saveOrder(ctx, id, orderEntry{Date: clock.Format(e.now), RelatedObjectType: "promotion_tier",
		RelatedObjectID: s.tier.ID, RelatedObjectParentID: s.tier.CampaignID})
	if err != nil {
		return nil, err
	}
	create, err := w.appliedEntry(ctx, id, nil, 0, stored)
	if err != nil {
		return nil, err
	}
	r, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing redemption: %w", err)
	}
	r.Edges.Customer = e.customer
	return &VoucherRedemptionResult{Redemption: r}, EmitRedemptions(e.eventContext(ctx), webhook.EventRedemptionSucceeded, r)
}

package redemption

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/graph/redemption/window"
)

// Promotion tiers and stacks as redeemables (docs/promotions.md): a
// stack is replaced by its tiers in order; a tier is read (and, when the
// request writes, locked) beside the vouchers, checked (active, dates and
// windows, its and its campaign's validation rules), applied with the
// vouchers' discount maths and stacking rules, and recorded as a
// redemption of related_object_type promotion_tier that counts in the
// tier's summary.

// Failure keys of a tier (the reference's).
const (
	keyPromotionInactive  = "promotion_inactive"
	keyPromotionNotActive = "promotion_not_active_now"
)

func init() {
	failureMessages[keyPromotionInactive] = "Inactive Promotion"
	failureMessages[keyPromotionNotActive] = "Promotion not active now"
}

// isTier reports whether the redeemable names a promotion tier.
func (s *redeemableState) isTier() bool { return redeemableObject(s.input) == "promotion_tier" }

// expandStack replaces a promotion_stack redeemable (alone in its request,
// see stackedRequest) by its tiers, in the stack's order. An unknown
// stack is a 404. The request keeps the stack (a second evaluation of the
// same request finds the tiers already there).
func (e *evaluation) expandStack(ctx context.Context) error {
	rs := e.req.redeemables
	if len(rs) != 1 || redeemableObject(rs[0]) != "promotion_stack" {
		return nil
	}
	s, err := promotion.StackByID(ctx, rs[0].ID)
	if err != nil {
		return err
	}
	if s == nil {
		return apperr.NotFound("promotion_stack", rs[0].ID)
	}
	tier := "promotion_tier"
	out := make([]*RedeemableInput, len(s.TierIds))
	for i, id := range s.TierIds {
		out[i] = &RedeemableInput{Object: &tier, ID: id}
	}
	e.req.redeemables, e.req.stack = out, s
	return nil
}

// loadTiers reads the tiers the request names, with their campaigns; with
// lock (a redemption on PostgreSQL) the tier rows are locked first, in id
// order, so that concurrent redemptions of one tier check its rules (the
// per-customer count) one after the other.
func (e *evaluation) loadTiers(ctx context.Context, lock bool) error {
	var ids []string
	for _, s := range e.states {
		if t := e.tiers.Tier(s.code()); t != nil && s.isTier() && !lock {
			s.tier, s.hasRules, s.fromSnapshot = t.Tier, true, true
			s.rules, s.ruleIDs, s.category = t.Rules, t.RuleIDs, t.Category
			continue
		}
		if s.isTier() && !slices.Contains(ids, s.code()) {
			ids = append(ids, s.code())
		}
	}
	if len(ids) == 0 {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if lock && store.IsPostgres(ctx) {
		slices.Sort(ids)
		if _, err := c.PromotionTier.Query().Where(promotiontier.IDIn(ids...)).
			Order(ent.Asc(promotiontier.FieldID)).ForUpdate().IDs(ctx); err != nil {
			return fmt.Errorf("locking promotion tiers: %w", err)
		}
	}
	tiers, err := c.PromotionTier.Query().Where(promotiontier.IDIn(ids...)).WithCampaign().All(ctx)
	if err != nil {
		return fmt.Errorf("reading promotion tiers: %w", err)
	}
	for _, s := range e.states {
		for _, t := range tiers {
			if s.isTier() && !s.fromSnapshot && t.ID == s.code() {
				s.tier, s.hasRules = t, true
			}
		}
	}
	return nil
}

// checkTier runs a tier's checks in the real service's order: found →
// tier and campaign active → dates and windows (tier, then campaign) →
// validation rules.
func (e *evaluation) checkTier(ctx context.Context, s *redeemableState) error {
	t := s.tier
	if t == nil {
		s.failure = notFoundFailure("promotion_tier", s.code())
		return nil
	}
	cmp := t.Edges.Campaign
	if !t.Active || (cmp != nil && !cmp.Active) {
		s.failure = failure(keyPromotionInactive, fmt.Sprintf("Promotion Tier with id: %s is disabled.", t.ID))
		return nil
	}
	w := window.Window{Start: t.StartDate, Expiration: t.ExpirationDate, Timeframe: t.ValidityTimeframe,
		DaysOfWeek: t.ValidityDayOfWeek, Hours: t.ValidityHours}
	if w.Check(e.now) == "" && cmp != nil {
		w = window.Window{Start: cmp.StartDate, Expiration: cmp.ExpirationDate, Timeframe: cmp.ValidityTimeframe,
			DaysOfWeek: cmp.ValidityDayOfWeek, Hours: cmp.ValidityHours}
	}
	if w.Check(e.now) != "" {
		s.failure = failure(keyPromotionNotActive, fmt.Sprintf("Promotion Tier with id: %s is not active now.", t.ID))
		return nil
	}
	f, err := e.checkRules(ctx, s)
	s.failure = f
	return err
}

// tierCandidate is what the stacking calculation gets for a valid tier.
func (s *redeemableState) tierCandidate(c discount.Candidate) discount.Candidate {
	c.Eligible = s.eligible()
	if d := s.tier.Discount; d != nil {
		dd := s.withTargets(campaign.DiscountOf(d)) // applicable.go
		c.Discount = &dd
	}
	return c
}

// ruleObjects are the ids whose rule assignments hold for the redeemable:
// the voucher or tier and its campaign.
func (s *redeemableState) ruleObjects() []string {
	switch {
	case s.voucher != nil:
		if s.voucher.CampaignID != nil {
			return []string{s.voucher.ID, *s.voucher.CampaignID}
		}
		return []string{s.voucher.ID}
	case s.tier != nil:
		return []string{s.tier.ID, s.tier.CampaignID}
	}
	return nil
}

// subject names the redeemable in a rule failure's details.
func (s *redeemableState) subject() string {
	if s.tier != nil {
		return "Promotion Tier"
	}
	return s.voucher.Code
}

// tierResult fills what a validation shows of a tier.
func (s *redeemableState) tierResult(r *RedeemableResult, skipped bool, rules discount.Rules) {
	t := s.tier
	r.Metadata = shape.OrEmptyMap(t.Metadata)
	if !skipped {
		r.Categories = s.categoriesView(rules)
	}
	r.CampaignID = &t.CampaignID
	if cmp := t.Edges.Campaign; cmp != nil {
		r.CampaignName = &cmp.Name
	}
}

// tierDiscount is the discount an applicable tier shows.
func (s *redeemableState) tierDiscount() map[string]any {
	t := s.tier
	if t.Discount == nil {
		return map[string]any{"discount": map[string]any{}}
	}
	d := *t.Discount
	s.markDynamic(&d) // formulas.go
	return map[string]any{"discount": &d}
}

// tierEntry applies a tier's redemption (its summary counters) and starts
// its redemption row.
func (w *writer) tierEntry(ctx context.Context, id string, parentID *string, s *redeemableState, out discount.Outcome) (*ent.RedemptionCreate, error) {
	t := s.tier
	if err := w.c.PromotionTier.UpdateOneID(t.ID).AddRedeemedCount(1).AddOrdersAmount(w.view.Amount).
		AddOrdersDiscountAmount(out.Result.Total).Exec(ctx); err != nil {
		return nil, fmt.Errorf("updating promotion tier counters: %w", err)
	}
	t.RedeemedCount++
	t.OrdersAmount += w.view.Amount
	t.OrdersDiscountAmount += out.Result.Total
	doc, err := encodeOrderView(w.childView(out))
	if err != nil {
		return nil, err
	}
	return w.entry(ctx, id, "SUCCESS", parentID).SetCampaignID(t.CampaignID).SetRelatedObjectType("promotion_tier").
		SetRelatedObjectID(t.ID).SetAppliedDiscount(out.Result.Total).SetOrder(doc), nil
}

package redemption

import (
	"context"
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
)

// ValidateStacked checks up to 30 codes against an order without using
// them. Business failures are data (valid:false, each redeemable's status
// and reason); only a malformed request is an error. With a session LOCK
// the applicable vouchers are held for the session (one unit, plus gift
// credits or loyalty points) in the same transaction that checked them.
func ValidateStacked(ctx context.Context, in StackedRedemptionInput) (*ValidationResult, error) {
	req, err := stackedRequest(in)
	if err != nil {
		return nil, err
	}
	var out *ValidationResult
	run := func(ctx context.Context) error {
		e, err := evaluate(ctx, req, validationMode(req))
		if err != nil {
			return err
		}
		out = e.validationResult(ctx)
		if req.session != nil && e.valid {
			out.Session, err = e.lockSession(ctx)
		}
		return err
	}
	return out, runValidation(ctx, req, run)
}

// validationResult renders a stacked validation.
func (e *evaluation) validationResult(ctx context.Context) *ValidationResult {
	rid := observe.RequestIDFromContext(ctx)
	var order any
	if e.valid {
		order = newOrderView(e.order, e.req.order, nil, e.customer)
	}
	var perRedeemable any
	if e.req.expand["order"] {
		perRedeemable = order
	}
	res := &ValidationResult{ID: pulid.PrefixValidation + pulid.Hex(9), Valid: e.valid, Redeemables: []*RedeemableResult{},
		Order: order, TrackingID: e.trackingID, StackingRules: stacking.RulesView(e.rules)}
	// In ALL mode every redeemable is listed in redeemables; in PARTIAL
	// mode only the applicable ones. In both, the inapplicable and skipped
	// ones are also listed on their own, as the real service does.
	for i, out := range e.outcomes {
		r := e.redeemableResult(i, rid, perRedeemable)
		if e.rules.Mode != discount.ModePartial || out.Status == discount.StatusApplicable {
			res.Redeemables = append(res.Redeemables, r)
		}
		switch out.Status {
		case discount.StatusApplicable:
		case discount.StatusInapplicable:
			res.InapplicableRedeemables = append(res.InapplicableRedeemables, r)
		default:
			res.SkippedRedeemables = append(res.SkippedRedeemables, r)
		}
	}
	return res
}

// ValidateVoucher is the legacy single-code validation. An unknown code is
// a 404 and a loyalty card without a reward a 400 (as the real service
// answers them); every other failure is valid:false with its reason.
func ValidateVoucher(ctx context.Context, code string, in *VoucherRedemptionInput) (*VoucherValidationResult, error) {
	req, err := legacyRequest(code, in)
	if err != nil {
		return nil, err
	}
	var out *VoucherValidationResult
	run := func(ctx context.Context) error {
		e, err := evaluate(ctx, req, validationMode(req))
		if err != nil {
			return err
		}
		s := e.states[0]
		if s.voucher == nil {
			return apperr.NotFound("voucher", code)
		}
		if f := s.failure; f != nil && f.key == "missing_reward" {
			return apperr.New(http.StatusBadRequest, f.key, f.message, f.details)
		}
		body := map[string]any{"valid": e.valid, "code": s.voucher.Code, "metadata": shape.OrEmptyMap(s.voucher.Metadata),
			"tracking_id": e.trackingID}
		if e.customer != nil {
			body["customer_id"] = e.customer.ID
		}
		if !e.valid {
			f := e.failureOf(s, e.outcomes[0].Key, "")
			// reason is the system's text; the error object shows the
			// rule's custom message in its place when there is one.
			body["reason"] = f.Message
			message := f.Message
			if f.Error != nil {
				message = f.Error.Message
			}
			body["error"] = map[string]any{"code": f.Code, "key": f.Key, "message": message, "details": f.Details,
				"request_id": observe.RequestIDFromContext(ctx)}
			out = &VoucherValidationResult{Valid: false, Code: s.voucher.Code, Body: body}
			return nil
		}
		e.fillLegacyValid(body, s)
		if req.session != nil {
			if body["session"], err = e.lockSession(ctx); err != nil {
				return err
			}
		}
		out = &VoucherValidationResult{Valid: true, Code: s.voucher.Code, Body: body}
		return nil
	}
	return out, runValidation(ctx, req, run)
}

// runValidation runs a validation: in a transaction when it locks a
// session; otherwise, on PostgreSQL, once the process's admission
// (admission.go) lets it.
func runValidation(ctx context.Context, req *redemptionRequest, run func(context.Context) error) error {
	if req.session != nil {
		// It writes the voucher rows: one waits for them in Go beyond
		// HotRowWaiters (hot_rows.go).
		leave, err := store.EnterRows(ctx, req.voucherIDs())
		if err != nil {
			return err
		}
		defer leave()
		return store.WithinTx(ctx, run)
	}
	if store.IsPostgres(ctx) {
		release, err := store.Admit(ctx)
		if err != nil {
			return err
		}
		defer release()
	}
	return run(ctx)
}

// fillLegacyValid adds what a valid legacy validation shows.
func (e *evaluation) fillLegacyValid(body map[string]any, s *redeemableState) {
	v := s.voucher
	var res *discount.Result
	if len(e.outcomes) > 0 {
		res = &e.outcomes[0].Result
	}
	body["applicable_to"], body["inapplicable_to"] = e.applicableTo(s, res), s.inapplicableTo()
	body["campaign_id"] = v.CampaignID
	if cmp := v.Edges.Campaign; cmp != nil {
		body["campaign"] = cmp.Name
	}
	if v.StartDate != nil {
		body["start_date"] = clock.Format(*v.StartDate)
	}
	if v.ExpirationDate != nil {
		body["expiration_date"] = clock.Format(*v.ExpirationDate)
	}
	switch v.Type {
	case jsonfield.VoucherTypeGift:
		body["gift"] = map[string]any{"amount": v.Gift.Amount, "balance": v.Gift.Balance, "effect": v.Gift.Effect,
			"credits": e.outcomes[0].Result.Total}
	case jsonfield.VoucherTypeLoyaltyCard:
		body["loyalty"] = map[string]any{"points_cost": s.points}
		body["reward"] = map[string]any{"id": s.reward.ID, "points": s.points}
	default:
		body["discount"] = e.applicableResult(s, e.outcomes[0])["discount"]
	}
	body["order"] = newOrderView(e.order, e.req.order, nil, e.customer)
}

// validationMode locks the vouchers only when a session lock is asked for.
func validationMode(req *redemptionRequest) evalMode {
	if req.session != nil {
		return lockVouchers
	}
	return readOnly
}

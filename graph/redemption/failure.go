package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/webhook"
)

// recordStackedFailure stores a request that redeemed nothing: a failed
// parent (rf_…) carrying the first failure, and a failed child for each
// inapplicable redeemable whose voucher exists. No voucher, balance or
// order changes.
func (e *evaluation) recordStackedFailure(ctx context.Context) (*StackedRedemptionResult, error) {
	w := e.newWriter(ctx)
	first := -1
	for i, out := range e.outcomes {
		if out.Status == discount.StatusInapplicable && first < 0 {
			first = i
		}
	}
	if first < 0 { // PARTIAL mode with nothing applicable and nothing inapplicable: all skipped
		first = 0
	}
	key := e.outcomes[first].Key
	parentID := pulid.PrefixRedemptionFailed + pulid.Hex(9)
	f := e.failureOf(e.states[first], key, parentID)
	parent, err := w.entry(ctx, parentID, "FAILURE", nil).SetRelatedObjectType("redemption").
		SetRelatedObjectID(parentID).SetFailureCode(f.Key).SetFailureMessage(f.Message).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing failed redemption: %w", err)
	}
	for i, out := range e.outcomes {
		if out.Status != discount.StatusInapplicable || (e.states[i].voucher == nil && e.states[i].tier == nil) {
			continue
		}
		if _, err := w.failedEntry(ctx, e.states[i], out.Key, &parentID); err != nil {
			return nil, err
		}
	}
	res := &StackedRedemptionResult{ParentRedemption: parent, Failure: f}
	res.InapplicableRedeemables, res.SkippedRedeemables = e.partialLists(ctx)
	return res, nil
}

// failedEntry stores the failed redemption of one voucher.
func (w *writer) failedEntry(ctx context.Context, s *redeemableState, key string, parentID *string) (*ent.Redemption, error) {
	f := w.e.failureOf(s, key, "")
	if t := s.tier; t != nil {
		r, err := w.entry(ctx, pulid.PrefixRedemptionFailed+pulid.Hex(9), "FAILURE", parentID).
			SetCampaignID(t.CampaignID).SetRelatedObjectType("promotion_tier").SetRelatedObjectID(t.ID).
			SetFailureCode(f.Key).SetFailureMessage(f.Message).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("storing failed redemption: %w", err)
		}
		r.Edges.Customer = w.e.customer
		return r, EmitRedemptions(w.e.eventContext(ctx), webhook.EventRedemptionFailed, r)
	}
	v := s.voucher
	r, err := w.entry(ctx, pulid.PrefixRedemptionFailed+pulid.Hex(9), "FAILURE", parentID).
		SetVoucherID(v.ID).SetVoucherCode(v.Code).SetNillableCampaignID(v.CampaignID).
		SetRelatedObjectType("voucher").SetRelatedObjectID(v.ID).
		SetFailureCode(f.Key).SetFailureMessage(f.Message).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing failed redemption: %w", err)
	}
	r.Edges.Voucher, r.Edges.Customer = v, w.e.customer
	return r, EmitRedemptions(w.e.eventContext(ctx), webhook.EventRedemptionFailed, r)
}

// failureOf is the error object of a redeemable's failure key.
func (e *evaluation) failureOf(s *redeemableState, key, resourceID string) *RedemptionFailure {
	f := s.failure
	if f == nil || f.key != key {
		f = failure(key, s.code())
	}
	out := failureOf(f.key, f.message, f.details, resourceID)
	if f.customMessage != "" {
		out.Error = &CustomErrorMessage{Message: f.customMessage}
	}
	if f.code == 404 {
		out.Code = 404
		out.ResourceID, out.ResourceType = &f.resourceID, &f.resourceType
	}
	return out
}

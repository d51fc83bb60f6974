package redemption

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// RedeemStacked redeems every redeemable of a stacked request, all or
// nothing, in one transaction: a parent redemption, one child per applied
// redeemable, the voucher counters and balances, their transactions and
// the order. When the request is not valid nothing is applied: a failed
// parent (rf_…) and a failed child per inapplicable redeemable are stored
// and the result carries the failure (REST answers it with HTTP 400).
func RedeemStacked(ctx context.Context, in StackedRedemptionInput) (*StackedRedemptionResult, error) {
	req, err := stackedRequest(in)
	if err != nil {
		return nil, err
	}
	leave, err := store.EnterRows(ctx, req.voucherIDs())
	if err != nil {
		return nil, observe.Redemption(ctx, false, err)
	}
	defer leave()
	out, done, err := redeemInOneStatement(ctx, req, (*evaluation).recordStacked)
	if done || err != nil {
		return out, observe.Redemption(ctx, false, err)
	}
	err = store.WithinTxRetried(ctx, func(ctx context.Context) error {
		e, err := evaluate(ctx, req, redeem)
		if err != nil {
			return err
		}
		if !e.valid {
			out, err = e.recordStackedFailure(ctx)
			return err
		}
		out, err = e.recordStacked(ctx)
		return err
	})
	return out, observe.Redemption(ctx, out != nil && out.Failure != nil, err)
}

// RedeemVoucher is the legacy single-code redemption: one redemption, no
// parent. An unknown code is a 404 (nothing is stored).
func RedeemVoucher(ctx context.Context, code string, in *VoucherRedemptionInput) (*VoucherRedemptionResult, error) {
	req, err := legacyRequest(code, in)
	if err != nil {
		return nil, err
	}
	leave, err := store.EnterRows(ctx, req.voucherIDs())
	if err != nil {
		return nil, observe.Redemption(ctx, false, err)
	}
	defer leave()
	out, done, err := redeemInOneStatement(ctx, req, (*evaluation).recordVoucherRedemption)
	if done || err != nil {
		return out, observe.Redemption(ctx, false, err)
	}
	err = store.WithinTxRetried(ctx, func(ctx context.Context) error {
		e, err := evaluate(ctx, req, redeem)
		if err != nil {
			return err
		}
		s := e.states[0]
		if s.voucher == nil {
			return apperr.NotFound("voucher", code)
		}
		if !e.valid {
			r, err := e.newWriter(ctx).failedEntry(ctx, s, e.outcomes[0].Key, nil)
			if err != nil {
				return err
			}
			out = &VoucherRedemptionResult{Redemption: r, Failure: e.failureOf(s, e.outcomes[0].Key, r.ID)}
			return nil
		}
		out, err = e.recordVoucherRedemption(ctx)
		return err
	})
	return out, observe.Redemption(ctx, out != nil && out.Failure != nil, err)
}

// recordVoucherRedemption stores a valid legacy single-code redemption.
func (e *evaluation) recordVoucherRedemption(ctx context.Context) (*VoucherRedemptionResult, error) {
	s, w := e.states[0], e.newWriter(ctx)
	id := pulid.PrefixRedemption + pulid.Hex(9)
	stored, err := w.saveOrder(ctx, id, orderEntry{Date: clock.Format(e.now), RelatedObjectType: "voucher",
		RelatedObjectID: s.voucher.ID})
	if err != nil {
		return nil, err
	}
	create, err := w.appliedEntry(ctx, id, nil, 0, stored)
	if err != nil {
		return nil, err
	}
	saved, err := saveRedemptionRows(ctx, w.c, create)
	if err != nil {
		return nil, fmt.Errorf("storing redemption: %w", err)
	}
	r := saved[0]
	r.Edges.Voucher, r.Edges.Customer = s.voucher, e.customer
	return &VoucherRedemptionResult{Redemption: r}, EmitRedemptions(e.eventContext(ctx), webhook.EventRedemptionSucceeded, r)
}

// eventContext is ctx for writing the evaluation's webhook events: it
// spares emitEvents its look-up when the vouchers' statement found no
// active webhook.
func (e *evaluation) eventContext(ctx context.Context) context.Context {
	if v, ok := viewer.FromContext(ctx); ok && e.webhooksKnownAbsent {
		return store.WithNoActiveWebhooks(ctx, v.ProjectID)
	}
	return ctx
}

// recordStacked stores a valid stacked redemption.
func (e *evaluation) recordStacked(ctx context.Context) (*StackedRedemptionResult, error) {
	w := e.newWriter(ctx)
	parentID := pulid.PrefixRedemption + pulid.Hex(9)
	var childIDs []string
	ids := make([]string, len(e.states))
	for i, out := range e.outcomes {
		if out.Status == discount.StatusApplicable {
			ids[i] = pulid.PrefixRedemption + pulid.Hex(9)
			childIDs = append(childIDs, ids[i])
		}
	}
	stored, err := w.saveOrder(ctx, parentID, orderEntry{Date: clock.Format(e.now), RelatedObjectType: "redemption",
		RelatedObjectID: parentID, Stacked: childIDs})
	if err != nil {
		return nil, err
	}
	doc, err := w.viewDocument()
	if err != nil {
		return nil, err
	}
	// The parent and its children are inserted in one statement.
	builders := []*ent.RedemptionCreate{w.entry(ctx, parentID, "SUCCESS", nil).
		SetRelatedObjectType("redemption").SetRelatedObjectID(parentID).
		SetAppliedDiscount(e.order.TotalAppliedDiscountAmount()).SetOrder(doc)}
	// The vouchers are updated in ID order, the order the transactional
	// path locks them in, so that two one-statement redemptions naming the
	// same codes in different orders take their row locks alike.
	children := make([]*ent.RedemptionCreate, len(e.states))
	for _, i := range e.statesByVoucherID() {
		if ids[i] == "" {
			continue
		}
		child, err := w.appliedEntry(ctx, ids[i], &parentID, i, stored)
		if err != nil {
			return nil, err
		}
		children[i] = child
	}
	var applied []int
	for i, child := range children {
		if child != nil {
			builders = append(builders, child)
			applied = append(applied, i)
		}
	}
	saved, err := saveRedemptionRows(ctx, w.c, builders...)
	if err != nil {
		return nil, fmt.Errorf("storing redemptions: %w", err)
	}
	res := &StackedRedemptionResult{ParentRedemption: saved[0], Order: w.view}
	for k, r := range saved[1:] {
		r.Edges.Voucher, r.Edges.Customer = e.states[applied[k]].voucher, e.customer
		res.Redemptions = append(res.Redemptions, r)
	}
	if err := EmitRedemptions(e.eventContext(ctx), webhook.EventRedemptionSucceeded, res.Redemptions...); err != nil {
		return nil, err
	}
	res.InapplicableRedeemables, res.SkippedRedeemables = e.partialLists(ctx)
	return res, nil
}

// statesByVoucherID are the indexes of e.states in voucher ID order
// (redeemables without a voucher last, in request order).
func (e *evaluation) statesByVoucherID() []int {
	idx := make([]int, len(e.states))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) string {
		if v := e.states[i].voucher; v != nil {
			return v.ID
		}
		return "\xff"
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(key(a), key(b)) })
	return idx
}

// partialLists are the inapplicable and skipped redeemables PARTIAL mode reports.
func (e *evaluation) partialLists(ctx context.Context) (inapplicable, skipped []*RedeemableResult) {
	if e.rules.Mode != discount.ModePartial {
		return nil, nil
	}
	for i, out := range e.outcomes {
		switch out.Status {
		case discount.StatusInapplicable:
			inapplicable = append(inapplicable, e.redeemableResult(i, observe.RequestIDFromContext(ctx), nil))
		case discount.StatusSkipped:
			skipped = append(skipped, e.redeemableResult(i, observe.RequestIDFromContext(ctx), nil))
		}
	}
	return inapplicable, skipped
}

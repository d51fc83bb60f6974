package rollback

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/event"
)

// RollbackRedemption reverts a single redemption (not a stacked parent or
// child): its voucher's counter, balance or points, and its order.
func RollbackRedemption(ctx context.Context, id string, in *RollbackInput) (*RollbackResult, error) {
	return rollback(ctx, id, in, false)
}

// RollbackStackedRedemption reverts a stacked redemption and every child;
// given a single redemption it works like rollbackRedemption.
func RollbackStackedRedemption(ctx context.Context, parentID string, in *RollbackInput) (*RollbackResult, error) {
	return rollback(ctx, parentID, in, true)
}

func rollback(ctx context.Context, id string, in *RollbackInput, stacked bool) (*RollbackResult, error) {
	if in == nil {
		in = &RollbackInput{}
	}
	var out *RollbackResult
	err := store.WithinTxRetried(ctx, func(ctx context.Context) error {
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		r, err := c.Redemption.Query().Where(redemption.ID(id)).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("redemption", id)
		}
		if err != nil {
			return fmt.Errorf("looking up redemption: %w", err)
		}
		if err := checkRollbackTarget(ctx, r, in, stacked); err != nil {
			return err
		}
		rb := &rollbacker{c: c, in: in, now: clock.Now()}
		if v, ok := viewer.FromContext(ctx); ok {
			rb.appID = v.AppID
		}
		if out, err = rb.run(ctx, r); err != nil {
			return err
		}
		return emitRollback(ctx, out)
	})
	return out, observe.Rollback(ctx, err)
}

func invalidRedemption(details string) *apperr.Error {
	return apperr.New(http.StatusBadRequest, "invalid_redemption", "Invalid redemption", details)
}

// checkRollbackTarget enforces which redemptions an endpoint reverts and
// that a customer or order named in the request is the redemption's.
func checkRollbackTarget(ctx context.Context, r *ent.Redemption, in *RollbackInput, stacked bool) error {
	switch {
	case r.Object != redemption.ObjectRedemption:
		return invalidRedemption("A rollback cannot be rolled back.")
	case r.ParentID != nil:
		return apperr.New(http.StatusBadRequest, "invalid_redemption_parent", "Invalid redemption parent",
			"You can rollback only a redemption that does not have parent redemption.")
	case !stacked && r.RelatedObjectType == "redemption":
		return invalidRedemption("You can rollback only a single redemption. Use different endpoint for stacked redemption.")
	case r.Result != redemption.ResultSUCCESS:
		return invalidRedemption("Only a successful redemption can be rolled back.")
	case r.Status == redemption.StatusROLLED_BACK:
		return alreadyRolledBack()
	}
	if cust := in.Customer; cust != nil && (cust.ID != nil || cust.SourceID != nil) {
		found, err := customer.ByIDOrSourceID(ctx, shape.FirstNonEmpty(cust.ID, cust.SourceID))
		if err != nil {
			return err
		}
		if r.CustomerID == nil || *r.CustomerID != found.ID {
			return apperr.New(http.StatusBadRequest, "invalid_customer", "Invalid customer", "Customer is not related with redemption.")
		}
	}
	if o := in.Order; o != nil && (o.ID != nil || o.SourceID != nil) {
		stored, err := orderOf(ctx, r)
		if err != nil {
			return err
		}
		if stored == nil || (o.ID != nil && *o.ID != stored.ID) || (o.SourceID != nil && (stored.SourceID == nil || *o.SourceID != *stored.SourceID)) {
			return apperr.New(http.StatusBadRequest, "invalid_order", "Invalid order", "Order is not related with redemption.")
		}
	}
	return nil
}

func alreadyRolledBack() *apperr.Error {
	return apperr.New(http.StatusBadRequest, "already_rolled_back", "Already rolled back", "Redemption has been already rolled back.")
}

// rollbacker reverts one redemption request.
type rollbacker struct {
	c     *ent.Client
	in    *RollbackInput
	now   time.Time
	appID string
}

// run marks the redemption rolled back — a conditional update, so of two
// concurrent rollbacks exactly one succeeds and the other finds it already
// rolled back — then reverts each child (or the single redemption).
func (rb *rollbacker) run(ctx context.Context, r *ent.Redemption) (*RollbackResult, error) {
	rollbackID := pulid.PrefixRollback + pulid.Hex(9)
	if err := rb.mark(ctx, r.ID, rollbackID); err != nil {
		return nil, err
	}
	// The order is locked before the vouchers, in the order redemptions
	// lock them, so a rollback and a redemption of one order cannot deadlock.
	view, err := rb.cancelOrder(ctx, r, rollbackID)
	if err != nil {
		return nil, err
	}
	res := &RollbackResult{Rollbacks: []*ent.Redemption{}, Order: view}
	targets := []*ent.Redemption{r}
	if r.RelatedObjectType == "redemption" {
		children, err := rb.c.Redemption.Query().Where(redemption.ParentID(r.ID), redemption.StatusEQ(redemption.StatusSUCCEEDED)).
			Order(ent.Asc(redemption.FieldVoucherID)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading stacked redemptions: %w", err)
		}
		targets = children
	}
	sort.SliceStable(targets, func(i, j int) bool {
		vi, vj := targets[i].VoucherID, targets[j].VoucherID
		if (vi == nil) != (vj == nil) {
			return vi != nil // vouchers before promotion tiers, the order redemptions lock them in
		}
		return campaign.Deref(vi) < campaign.Deref(vj)
	})
	for _, t := range targets {
		id := rollbackID
		var parent *string
		if t.ID != r.ID {
			id, parent = pulid.PrefixRollback+pulid.Hex(9), &rollbackID
			if err := rb.mark(ctx, t.ID, id); err != nil {
				return nil, err
			}
		}
		child, err := rb.revert(ctx, t, id, parent)
		if err != nil {
			return nil, err
		}
		if t.ID == r.ID {
			res.Rollback = child
		} else {
			res.Rollbacks = append(res.Rollbacks, child)
		}
	}
	if res.Rollback == nil {
		parent, err := rb.entry(r, rollbackID, nil).SetAppliedDiscount(-r.AppliedDiscount).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("storing rollback: %w", err)
		}
		res.Rollback = parent
	}
	return res, nil
}

// mark sets a SUCCEEDED redemption to ROLLED_BACK.
func (rb *rollbacker) mark(ctx context.Context, id, rollbackID string) error {
	n, err := rb.c.Redemption.Update().Where(redemption.ID(id), redemption.StatusEQ(redemption.StatusSUCCEEDED)).
		SetStatus(redemption.StatusROLLED_BACK).SetRollbackID(rollbackID).Save(ctx)
	if err != nil {
		return fmt.Errorf("marking redemption rolled back: %w", err)
	}
	if n == 0 {
		return alreadyRolledBack()
	}
	return nil
}

// revert gives back what one redemption took from its voucher and stores
// its rollback entry.
func (rb *rollbacker) revert(ctx context.Context, t *ent.Redemption, id string, parentID *string) (*ent.Redemption, error) {
	create := rb.entry(t, id, parentID).SetAppliedDiscount(-t.AppliedDiscount)
	if err := releaseBudgetUse(ctx, rb.c, t.ID); err != nil { // unit_budgets.go
		return nil, err
	}
	if t.VoucherID == nil {
		if t.RelatedObjectType == "promotion_tier" {
			if err := rb.revertTier(ctx, t); err != nil { // tiers.go
				return nil, err
			}
		}
		return saveRollback(ctx, create)
	}
	v, err := campaign.LockVoucher(ctx, rb.c, *t.VoucherID)
	if err != nil {
		return nil, err
	}
	upd := rb.c.Voucher.Update().Where(voucher.ID(v.ID)).AddRedeemedQuantity(-1)
	var moved, balance int64
	var txType vouchertransaction.Type
	if t.Amount != nil {
		moved = *t.Amount
		create.SetAmount(-moved)
	}
	switch {
	case moved > 0 && v.Type == jsonfield.VoucherTypeGift && v.Gift != nil:
		g := *v.Gift
		g.Balance += moved
		upd.SetGift(&g)
		v.Gift = &g
		txType, balance = vouchertransaction.TypeCREDITS_REFUND, g.Balance
	case moved > 0 && v.Type == jsonfield.VoucherTypeLoyaltyCard && v.LoyaltyCard != nil:
		l := *v.LoyaltyCard
		l.Balance += moved
		upd.SetLoyaltyCard(&l).AddRedeemedPoints(-int(moved))
		v.LoyaltyCard, v.RedeemedPoints = &l, v.RedeemedPoints-int(moved)
		txType, balance = vouchertransaction.TypePOINTS_REFUND, l.Balance
	}
	if err := upd.Exec(ctx); err != nil {
		return nil, fmt.Errorf("reverting voucher counters: %w", err)
	}
	if v.IsReferralCode {
		if err := event.UndoReferralConversion(ctx, t.ID); err != nil { // graph/loyalty/event/referral_undo.go
			return nil, err
		}
	}
	if t.Reward != nil {
		create.SetReward(t.Reward)
		if err := returnRewardStock(ctx, rb.c, t.Reward); err != nil {
			return nil, err
		}
	}
	v.RedeemedQuantity--
	out, err := saveRollback(ctx, create)
	if err != nil {
		return nil, err
	}
	if txType != "" {
		details := map[string]any{"rollback": map[string]any{"id": id}, "redemption": map[string]any{"id": t.ID}}
		if _, err := campaign.RecordTransaction(ctx, rb.c, v, txType, moved, balance, nil, rb.in.Reason, details); err != nil {
			return nil, err
		}
	}
	out.Edges.Voucher = v
	return out, nil
}

func saveRollback(ctx context.Context, create *ent.RedemptionCreate) (*ent.Redemption, error) {
	out, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing rollback: %w", err)
	}
	return out, nil
}

// entry starts the rollback row of t.
func (rb *rollbacker) entry(t *ent.Redemption, id string, parentID *string) *ent.RedemptionCreate {
	tracking := t.TrackingID
	if rb.in.TrackingID != nil {
		tracking = rb.in.TrackingID
	}
	metadata := rb.in.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	return rb.c.Redemption.Create().SetID(id).SetObject(redemption.ObjectRedemptionRollback).
		SetResult(redemption.ResultSUCCESS).SetStatus(redemption.StatusSUCCEEDED).SetRolledBackID(t.ID).
		SetNillableParentID(parentID).SetNillableVoucherID(t.VoucherID).SetNillableVoucherCode(t.VoucherCode).
		SetNillableCampaignID(t.CampaignID).SetNillableCustomerID(t.CustomerID).SetNillableOrderID(t.OrderID).
		SetNillableTrackingID(tracking).SetNillableReason(rb.in.Reason).SetMetadata(metadata).
		SetRelatedObjectType(t.RelatedObjectType).SetRelatedObjectID(t.RelatedObjectID).
		SetChannel(map[string]any{"channel_id": rb.appID, "channel_type": "API"}).SetCreatedAt(rb.now)
}

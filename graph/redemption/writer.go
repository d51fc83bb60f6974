package redemption

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// writer stores the outcome of an evaluation.
type writer struct {
	e      *evaluation
	c      *ent.Client
	view   *orderView
	stored *ent.Order
	// viewDoc is view in its stored form (viewDocument).
	viewDoc json.RawMessage
	// channelDoc is the channel (the viewer's app and channel type) every
	// entry of the request stores: one map, encoded once in a write batch
	// (sharedDocs).
	channelDoc map[string]any
}

// viewDocument is the order view as the order and the parent redemption
// store it, encoded once per request.
func (w *writer) viewDocument() (json.RawMessage, error) {
	if w.viewDoc == nil {
		doc, err := encodeOrderView(w.view)
		if err != nil {
			return nil, err
		}
		w.viewDoc = doc
	}
	return w.viewDoc, nil
}

func (e *evaluation) newWriter(ctx context.Context) *writer {
	v, _ := viewer.FromContext(ctx)
	return &writer{e: e, c: ent.FromContext(ctx), view: newOrderView(e.order, e.req.order, nil, e.customer),
		channelDoc: map[string]any{"channel_id": v.AppID, "channel_type": v.Channel()}}
}

// appliedEntry applies the redemption of state i to its voucher (counters,
// balance, transaction, session lock) and returns the redemption row to insert.
func (w *writer) appliedEntry(ctx context.Context, id string, parentID *string, i int, stored *ent.Order) (*ent.RedemptionCreate, error) {
	e, s, out := w.e, w.e.states[i], w.e.outcomes[i]
	if err := w.recordBudgetUse(ctx, i, id); err != nil { // unit_budgets.go
		return nil, err
	}
	if s.tier != nil {
		return w.tierEntry(ctx, id, parentID, s, out) // tiers.go
	}
	v := s.voucher
	var amount *int64
	var txType vouchertransaction.Type
	var moved, balance int64
	var gift *jsonfield.Gift
	var card *jsonfield.LoyaltyCard
	switch v.Type {
	case jsonfield.VoucherTypeGift:
		g := *v.Gift
		moved = out.Result.Total
		g.Balance -= moved
		gift, v.Gift = &g, &g
		amount, txType, balance = &moved, vouchertransaction.TypeCREDITS_REDEMPTION, g.Balance
	case jsonfield.VoucherTypeLoyaltyCard:
		l := *v.LoyaltyCard
		moved = s.points
		l.Balance -= moved
		card, v.LoyaltyCard, v.RedeemedPoints = &l, &l, v.RedeemedPoints+int(moved)
		amount, txType, balance = &moved, vouchertransaction.TypePOINTS_REDEMPTION, l.Balance
	}
	if err := w.countRedemption(ctx, s, gift, card); err != nil {
		return nil, err
	}
	v.RedeemedQuantity++
	doc, err := encodeOrderView(w.childView(out))
	if err != nil {
		return nil, err
	}
	create := w.entry(ctx, id, "SUCCESS", parentID).SetVoucherID(v.ID).SetVoucherCode(v.Code).
		SetNillableCampaignID(v.CampaignID).SetRelatedObjectType("voucher").SetRelatedObjectID(v.ID).
		SetAppliedDiscount(out.Result.Total).SetOrder(doc).SetNillableAmount(amount)
	if s.reward != nil {
		stored, err := w.issueReward(ctx, s, id)
		if err != nil {
			return nil, err
		}
		create.SetReward(stored)
	}
	if err := w.convertReferral(ctx, s, id); err != nil { // referral.go
		return nil, err
	}
	if amount != nil {
		details := map[string]any{"redemption": map[string]any{"id": id},
			"order": map[string]any{"id": stored.ID, "source_id": stored.SourceID}}
		if _, err := campaign.RecordTransaction(ctx, w.c, v, txType, -moved, balance, nil, nil, details); err != nil {
			return nil, err
		}
	}
	if e.sessionKey != "" {
		if _, err := w.c.SessionLock.Delete().Where(sessionlock.Key(e.sessionKey), sessionlock.VoucherID(v.ID)).Exec(ctx); err != nil {
			return nil, fmt.Errorf("releasing session lock: %w", err)
		}
	}
	return create, nil
}

// countRedemption adds the redemption to the voucher's counters and sets
// its new gift or loyalty card (nil: unchanged). A bulk update: no re-read
// of the row (the locked copy is patched by the caller). A guarded
// redemption changes only the version it read; in a write batch it is a
// hand-written statement (batched_rows.go).
func (w *writer) countRedemption(ctx context.Context, s *redeemableState, gift *jsonfield.Gift, card *jsonfield.LoyaltyCard) error {
	points := int64(0)
	if card != nil {
		points = s.points
	}
	if b := entdb.BatchFrom(ctx); b != nil && s.version != "" {
		return batchRedeemedVoucher(ctx, b, s.voucher, s.version, w.e.now, gift, card, points)
	}
	upd := w.c.Voucher.Update().Where(voucher.ID(s.voucher.ID)).AddRedeemedQuantity(1)
	if s.version != "" {
		upd.Where(rowVersionIs(s.version))
	}
	if gift != nil {
		upd.SetGift(gift)
	}
	if card != nil {
		upd.SetLoyaltyCard(card).AddRedeemedPoints(int(points))
	}
	if err := upd.Exec(ctx); err != nil {
		return fmt.Errorf("updating voucher counters: %w", err)
	}
	return nil
}

// entry starts a redemption row with what every entry of the request shares.
func (w *writer) entry(ctx context.Context, id, result string, parentID *string) *ent.RedemptionCreate {
	e := w.e
	create := w.c.Redemption.Create().SetID(id).SetObject(redemption.ObjectRedemption).
		SetResult(redemption.Result(result)).SetNillableParentID(parentID).
		SetNillableTrackingID(e.trackingID).SetMetadata(shape.OrEmptyMap(e.req.metadata)).
		SetChannel(w.channelDoc).SetCreatedAt(e.now)
	if result == "SUCCESS" {
		create.SetStatus(redemption.StatusSUCCEEDED)
	} else {
		create.SetStatus(redemption.StatusFAILED)
	}
	if e.customer != nil {
		create.SetCustomerID(e.customer.ID)
	}
	if w.stored != nil {
		create.SetOrderID(w.stored.ID)
	}
	if e.sessionKey != "" {
		create.SetSessionKey(e.sessionKey)
	}
	return create
}

// childView is the order as one child shows it: the whole order, with the
// applied amounts of that child alone.
func (w *writer) childView(out discount.Outcome) *orderView {
	v := *w.view
	v.Items = append([]orderItemView(nil), w.view.Items...)
	v.AppliedDiscountAmount = out.Result.OrderDiscount
	var items int64
	for i := range v.Items {
		share := int64(0)
		if i < len(out.Result.ItemDiscounts) {
			share = out.Result.ItemDiscounts[i]
		}
		v.Items[i].AppliedDiscountAmount = share
		items += share
	}
	v.ItemsAppliedDiscountAmount, v.TotalAppliedDiscountAmount = items, out.Result.Total
	v.Redemptions = nil
	return &v
}

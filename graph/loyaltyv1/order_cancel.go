package loyaltyv1

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Points on purchases come back with the purchase (issue #31; reference
// U14 decided as "reversed when the order is canceled"): when an order
// is canceled — a redemption rolled back WITH_ORDER, or the order written
// CANCELED — the points its order.paid rules credited to v1 loyalty
// cards are taken back. graph/order calls this once per order, under the
// order's row lock, in the write that cancels it (set at wiring). A plain
// rollback leaves the order PAID and its points.

// RevokeOrderAccruals writes one POINTS_REMOVAL per card of what the
// order's booked accruals added (details.order.id), at most the card's
// balance (points already spent are not recovered below zero), with
// details.order and details.reason "order canceled". Pending entries the
// order's rules made stay pending (not revoked).
func RevokeOrderAccruals(ctx context.Context, o *ent.Order) error {
	if o.CustomerID == nil {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cards, err := c.Voucher.Query().Where(voucher.HolderID(*o.CustomerID), voucher.TypeEQ(jsonfield.VoucherTypeLoyaltyCard)).IDs(ctx)
	if err != nil || len(cards) == 0 {
		return wrapRevoke(err)
	}
	txs, err := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherIDIn(cards...),
		vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_ACCRUAL), vouchertransaction.CreatedAtGTE(o.CreatedAt)).
		Select(vouchertransaction.FieldVoucherID, vouchertransaction.FieldAmount, vouchertransaction.FieldDetails).All(ctx)
	if err != nil {
		return wrapRevoke(err)
	}
	earned := map[string]int64{}
	for _, tx := range txs {
		if ref, _ := tx.Details["order"].(map[string]any); ref != nil && ref["id"] == o.ID {
			earned[tx.VoucherID] += tx.Amount
		}
	}
	for _, card := range slices.Sorted(maps.Keys(earned)) { // one lock order for every writer
		locked, err := campaign.LockVoucher(ctx, c, card)
		if err != nil {
			return wrapRevoke(err)
		}
		take := earned[card]
		if locked.LoyaltyCard != nil {
			take = min(take, locked.LoyaltyCard.Balance)
		}
		if take <= 0 {
			continue
		}
		details := map[string]any{"order": map[string]any{"id": o.ID, "source_id": o.SourceID}, "reason": "order canceled"}
		if _, _, err := book(ctx, c, locked, move{typ: vouchertransaction.TypePOINTS_REMOVAL, points: -take,
			details: details, source: "Automation", operation: "AUTOMATIC"}); err != nil {
			return wrapRevoke(err)
		}
	}
	return nil
}

func wrapRevoke(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("taking back a canceled order's points: %w", err)
}

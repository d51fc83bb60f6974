package customer

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// pointsActivityTypes maps the loyalty card transactions that show as
// activities of the card's holder to their activity type (v1 cards;
// spending shows as the redemption's own activity).
var pointsActivityTypes = map[vouchertransaction.Type]string{
	vouchertransaction.TypePOINTS_ACCRUAL:            pointsAdded,
	vouchertransaction.TypePOINTS_ADDITION:           pointsAdded,
	vouchertransaction.TypePOINTS_REFUND:             pointsAdded,
	vouchertransaction.TypePENDING_POINTS_ACTIVATION: pointsAdded,
	vouchertransaction.TypePOINTS_EXPIRATION:         "customer.voucher.loyalty_card.points_expired",
	vouchertransaction.TypePOINTS_TRANSFER_IN:        pointsTransferred,
	vouchertransaction.TypePOINTS_TRANSFER_OUT:       pointsTransferred,
}

const (
	pointsAdded       = "customer.voucher.loyalty_card.points_added"
	pointsTransferred = "customer.voucher.loyalty_card.points_transferred"
)

// pointsMoveSource: customer.voucher.loyalty_card.points_added|expired|
// transferred, the points transactions of the loyalty cards the customer
// holds, filtered by the campaign the request named. Each card is a source
// of its own read off voucher_transactions (voucher_id, created_at, id): one
// query over all the cards (voucher_id IN …) would sort every transaction
// of every card for each page.
func pointsMoveSource() customerActivitySource {
	src := customerActivitySource{name: "points", prefixes: []string{pulid.PrefixVoucherTx}, campaignScoped: true,
		types: []string{pointsAdded, "customer.voucher.loyalty_card.points_expired", pointsTransferred}}
	return perKey(src, heldCards, func(cardID string) customerActivitySource {
		return tableSource(src, vouchertransaction.FieldCreatedAt, vouchertransaction.FieldID,
			func(c *ent.Client, f activityFilter) *ent.VoucherTransactionQuery {
				var types []vouchertransaction.Type
				for typ, act := range pointsActivityTypes {
					if f.wants(act) {
						types = append(types, typ)
					}
				}
				return c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(cardID), vouchertransaction.TypeIn(types...))
			}, eachRow(pointsMoveActivity))
	})
}

// heldCards are the IDs of the cards (vouchers) the customer holds, of the
// campaign the request named.
func heldCards(ctx context.Context, f activityFilter) ([]string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Voucher.Query().Where(voucher.HolderID(f.customerID))
	if f.campaignScoped {
		q.Where(f.campaign(voucher.FieldCampaignID))
	}
	ids, err := q.Order(voucher.ByID()).IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the customer's cards: %w", err)
	}
	return ids, nil
}

// pointsMoveActivity is the activity of one points transaction.
func pointsMoveActivity(tx *ent.VoucherTransaction) *CustomerActivity {
	return &CustomerActivity{ID: tx.ID, Type: pointsActivityTypes[tx.Type], CreatedAt: tx.CreatedAt,
		Data: map[string]any{"voucher": map[string]any{"id": tx.VoucherID, "campaign_id": tx.CampaignID, "object": "voucher"},
			"transaction": map[string]any{"id": tx.ID, "type": tx.Type, "amount": tx.Amount, "balance": tx.Balance,
				"source_id": tx.SourceID, "reason": tx.Reason, "details": tx.Details, "object": "loyalty_card_transaction"},
			"balance": map[string]any{"points": tx.Amount, "balance": tx.Balance, "type": "loyalty_card", "object": "balance",
				"related_object": map[string]any{"id": tx.VoucherID, "type": "voucher"}}}}
}

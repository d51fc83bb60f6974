package customer

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// pointsActivityTypes maps the loyalty card transactions that show as
// activities of the card's holder to their activity type (v1 cards).
// **Decision:** the documents name no "points subtracted" activity, so a
// manual removal shows as points_added with its signed (negative) points,
// as the balance object of the move carries them; spending on a reward
// shows as the redemption's own activities (customer.redemption.*).
var pointsActivityTypes = map[vouchertransaction.Type]string{
	vouchertransaction.TypePOINTS_ACCRUAL:            pointsAdded,
	vouchertransaction.TypePOINTS_ADDITION:           pointsAdded,
	vouchertransaction.TypePOINTS_REMOVAL:            pointsAdded,
	vouchertransaction.TypePOINTS_REFUND:             pointsAdded,
	vouchertransaction.TypePENDING_POINTS_ACTIVATION: pendingActivated,
	vouchertransaction.TypePOINTS_EXPIRATION:         pointsExpired,
	vouchertransaction.TypePOINTS_TRANSFER_IN:        pointsTransferred,
	vouchertransaction.TypePOINTS_TRANSFER_OUT:       pointsTransferred,
}

const (
	pointsAdded       = "customer.voucher.loyalty_card.points_added"
	pointsExpired     = "customer.voucher.loyalty_card.points_expired"
	pointsTransferred = "customer.voucher.loyalty_card.points_transferred"
	pendingActivated  = "customer.voucher.loyalty_card.pending_points.activated"
	pendingAdded      = "customer.voucher.loyalty_card.pending_points.added"
)

// pointsMoveSource: customer.voucher.loyalty_card.points_added|expired|
// transferred and pending_points.activated, the points transactions of the
// loyalty cards the customer holds, filtered by the campaign the request
// named. Each card is a source of its own read off voucher_transactions
// (voucher_id, created_at, id): one query over all the cards (voucher_id
// IN …) would sort every transaction of every card for each page. The
// transactions are written with the move (in its transaction, or by the
// one statement of credit_statement.go), so each move shows once.
func pointsMoveSource() customerActivitySource {
	src := customerActivitySource{name: "points", prefixes: []string{pulid.PrefixVoucherTx}, campaignScoped: true,
		types: []string{pointsAdded, pointsExpired, pointsTransferred, pendingActivated}}
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

// pendingAddedSource: customer.voucher.loyalty_card.pending_points.added,
// the pending-points entries (lopp_…) of the cards the customer holds,
// whatever became of them since (activation shows as its transaction).
func pendingAddedSource() customerActivitySource {
	src := customerActivitySource{name: "pending", prefixes: []string{pulid.PrefixPendingPoints}, campaignScoped: true,
		types: []string{pendingAdded}}
	return perKey(src, heldCards, func(cardID string) customerActivitySource {
		return tableSource(src, pointsbucket.FieldCreatedAt, pointsbucket.FieldID,
			func(c *ent.Client, _ activityFilter) *ent.PointsBucketQuery {
				return c.PointsBucket.Query().Where(pointsbucket.VoucherID(cardID), pointsbucket.StatusIn(
					pointsbucket.StatusPENDING, pointsbucket.StatusACTIVATED, pointsbucket.StatusCANCELED))
			}, eachRow(func(b *ent.PointsBucket) *CustomerActivity {
				var activates any
				if b.ActivatesAt != nil {
					activates = b.ActivatesAt.UTC().Format(time.DateOnly)
				}
				return &CustomerActivity{ID: b.ID, Type: pendingAdded, CreatedAt: b.CreatedAt,
					Data: map[string]any{"voucher": map[string]any{"id": b.VoucherID, "campaign_id": b.CampaignID, "object": "voucher"},
						"pending_points": map[string]any{"id": b.ID, "points": b.Points, "order_id": b.OrderID,
							"activates_at": activates, "details": b.Details, "object": "pending_points"}}}
			}))
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

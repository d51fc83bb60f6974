package customer

import (
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
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
// holds, filtered by the campaign the request named.
func pointsMoveSource() customerActivitySource {
	query := func(c *ent.Client, f activityFilter) *ent.VoucherTransactionQuery {
		var types []vouchertransaction.Type
		for typ, act := range pointsActivityTypes {
			if f.wants(act) {
				types = append(types, typ)
			}
		}
		held := func(s *sql.Selector) {
			t := sql.Table(voucher.Table)
			s.Where(sql.In(s.C(vouchertransaction.FieldVoucherID), sql.Select(t.C(voucher.FieldID)).From(t).
				Where(sql.EQ(t.C(voucher.FieldHolderID), f.customerID))))
		}
		q := c.VoucherTransaction.Query().Where(held, vouchertransaction.TypeIn(types...))
		if f.campaignScoped {
			q.Where(f.campaign(vouchertransaction.FieldCampaignID))
		}
		return q
	}
	return tableSource(customerActivitySource{name: "points", prefixes: []string{pulid.PrefixVoucherTx}, campaignScoped: true,
		types: []string{pointsAdded, "customer.voucher.loyalty_card.points_expired", pointsTransferred}},
		vouchertransaction.FieldCreatedAt, vouchertransaction.FieldID, query, eachRow(func(tx *ent.VoucherTransaction) *CustomerActivity {
			return &CustomerActivity{ID: tx.ID, Type: pointsActivityTypes[tx.Type], CreatedAt: tx.CreatedAt,
				Data: map[string]any{"voucher": map[string]any{"id": tx.VoucherID, "campaign_id": tx.CampaignID, "object": "voucher"},
					"transaction": map[string]any{"id": tx.ID, "type": tx.Type, "amount": tx.Amount, "balance": tx.Balance,
						"source_id": tx.SourceID, "reason": tx.Reason, "details": tx.Details, "object": "loyalty_card_transaction"},
					"balance": map[string]any{"points": tx.Amount, "balance": tx.Balance, "type": "loyalty_card", "object": "balance",
						"related_object": map[string]any{"id": tx.VoucherID, "type": "voucher"}}}}
		}))
}

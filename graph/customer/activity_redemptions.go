package customer

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// redemptionSource: customer.redemption.succeeded|failed and
// customer.redemption.rollback.succeeded|failed, one per voucher (the parent
// entry of a stacked request is not an activity of its own).
func redemptionSource() customerActivitySource {
	kinds := redemptionKinds()
	types := make([]string, len(kinds))
	for i, k := range kinds {
		types[i] = k.typ
	}
	return tableSource(customerActivitySource{name: "redemption", campaignScoped: true, types: types,
		prefixes: []string{pulid.PrefixRedemption, pulid.PrefixRedemptionFailed, pulid.PrefixRollback, pulid.PrefixRollbackFailed}},
		redemption.FieldCreatedAt, redemption.FieldID,
		func(c *ent.Client, f activityFilter) *ent.RedemptionQuery {
			q := c.Redemption.Query().Where(redemption.CustomerID(f.customerID), redemption.RelatedObjectTypeNEQ("redemption"),
				f.campaign(redemption.FieldCampaignID))
			if !f.wantsAll(types) {
				var wanted []predicate.Redemption
				for _, k := range kinds {
					if f.wants(k.typ) {
						wanted = append(wanted, redemption.And(redemption.ObjectEQ(k.object), redemption.ResultEQ(k.result)))
					}
				}
				q.Where(redemption.Or(wanted...))
			}
			return q
		}, eachRow(redemptionActivity))
}

// redemptionKind is the activity type of redemption rows of one object
// and result.
type redemptionKind struct {
	object redemption.Object
	result redemption.Result
	typ    string
}

// redemptionKinds are the four kinds of redemption activities.
func redemptionKinds() []redemptionKind {
	var out []redemptionKind
	for _, o := range []redemption.Object{redemption.ObjectRedemption, redemption.ObjectRedemptionRollback} {
		for _, r := range []redemption.Result{redemption.ResultSUCCESS, redemption.ResultFAILURE} {
			out = append(out, redemptionKind{object: o, result: r, typ: redemptionActivityType(o, r)})
		}
	}
	return out
}

// redemptionActivityType is customer.redemption[.rollback].succeeded|failed.
func redemptionActivityType(o redemption.Object, r redemption.Result) string {
	kind := "customer.redemption."
	if o == redemption.ObjectRedemptionRollback {
		kind = "customer.redemption.rollback."
	}
	if r == redemption.ResultFAILURE {
		return kind + "failed"
	}
	return kind + "succeeded"
}

func redemptionActivity(r *ent.Redemption) *CustomerActivity {
	key := "redemption"
	if r.Object == redemption.ObjectRedemptionRollback {
		key = "redemption_rollback"
	}
	entry := map[string]any{"id": r.ID, "object": r.Object.String(), "result": r.Result.String(), "status": r.Status.String(),
		"voucher": map[string]any{"id": r.VoucherID, "code": r.VoucherCode, "object": "voucher"}, "campaign_id": r.CampaignID,
		"amount": r.Amount, "applied_discount_amount": r.AppliedDiscount, "order_id": r.OrderID, "tracking_id": r.TrackingID,
		"metadata": shape.OrEmptyMap(r.Metadata)}
	if r.FailureCode != nil {
		entry["failure_code"], entry["failure_message"] = r.FailureCode, r.FailureMessage
	}
	if r.RolledBackID != nil {
		entry["redemption"], entry["reason"] = r.RolledBackID, r.Reason
	}
	channel := "API"
	if t, ok := r.Channel["channel_type"].(string); ok && t == "CLIENT_API" {
		channel = t
	}
	return &CustomerActivity{ID: r.ID, Type: redemptionActivityType(r.Object, r.Result), CreatedAt: r.CreatedAt,
		Data: map[string]any{key: entry}, Channel: channel}
}

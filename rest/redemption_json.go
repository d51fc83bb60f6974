package rest

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
)

// redemptionJSON renders a redemption or rollback as the real service's
// redemption / redemption_rollback object.
func (h redemptionHandlers) redemptionJSON(c *gin.Context, r *ent.Redemption) map[string]any {
	out := map[string]any{
		"id": r.ID, "object": r.Object.String(), "date": timestamp(r.CreatedAt),
		"customer_id": r.CustomerID, "tracking_id": r.TrackingID, "metadata": orEmpty(r.Metadata),
		"result": r.Result.String(), "status": r.Status.String(),
		"related_object_type": r.RelatedObjectType, "related_object_id": r.RelatedObjectID,
		"channel": r.Channel, "order": r.Order, "customer": nil, "voucher": nil,
	}
	if r.Object == redemption.ObjectRedemption {
		out["redemption"] = r.ParentID
	} else {
		out["redemption"] = r.RolledBackID
		if r.Reason != nil {
			out["reason"] = *r.Reason
		}
	}
	if r.FailureCode != nil {
		out["failure_code"], out["failure_message"] = *r.FailureCode, r.FailureMessage
	}
	if r.Amount != nil {
		out["amount"] = *r.Amount
	}
	if r.SessionKey != nil {
		out["session"] = map[string]any{"key": *r.SessionKey}
	}
	if r.Reward != nil {
		out["reward"] = r.Reward
	}
	if r.RollbackID != nil {
		out["related_redemptions"] = map[string]any{"rollbacks": []any{map[string]any{"id": *r.RollbackID}}}
	}
	if cust := r.Edges.Customer; cust != nil {
		out["customer"] = map[string]any{"id": cust.ID, "name": cust.Name, "email": cust.Email,
			"source_id": cust.SourceID, "metadata": orEmpty(cust.Metadata), "object": "customer"}
	}
	if v := r.Edges.Voucher; v != nil {
		body := h.vouchers.voucherJSON(c, v)
		out["voucher"] = body
		if r.Amount != nil {
			switch v.Type {
			case "GIFT_VOUCHER":
				out["gift"] = map[string]any{"amount": *r.Amount}
			case "LOYALTY_CARD":
				out["loyalty_card"] = map[string]any{"points": *r.Amount}
			}
		}
	}
	return out
}

// redemptionsJSON renders a list of history entries.
func (h redemptionHandlers) redemptionsJSON(c *gin.Context, rs []*ent.Redemption) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = h.redemptionJSON(c, r)
	}
	return out
}

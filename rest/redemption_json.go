package rest

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/graph/promotion"
)

// redemptionObject is the real service's redemption / redemption_rollback
// object, keys in its order (the OpenAPI reference). Keys marked omitempty appear only when they apply; the
// interface-typed ones hold a value (possibly a nil pointer, shown as null)
// exactly when they apply. Its keys before and after the order document
// are two embedded structs, which encode as if their fields were its own,
// so that a page can write the stored document between them as it is
// (redemptionListBody).
type redemptionObject struct {
	redemptionHead
	// Order is the stored order document, or a rollback's canceled order.
	Order any `json:"order"`
	redemptionTail
}

// redemptionHead is a redemptionObject's keys before the order.
type redemptionHead struct {
	ID         string         `json:"id"`
	Object     string         `json:"object"`
	Date       timestamp      `json:"date"`
	CustomerID *string        `json:"customer_id"`
	TrackingID *string        `json:"tracking_id"`
	Metadata   map[string]any `json:"metadata"`
	Amount     *int64         `json:"amount,omitempty"`
	// Redemption is the parent of a redemption, the rolled back
	// redemption of a rollback.
	Redemption         *string `json:"redemption"`
	Reason             *string `json:"reason,omitempty"`
	Result             string  `json:"result"`
	Status             string  `json:"status"`
	Session            any     `json:"session,omitempty"`
	RelatedRedemptions any     `json:"related_redemptions,omitempty"`
	FailureCode        *string `json:"failure_code,omitempty"`
	FailureMessage     any     `json:"failure_message,omitempty"`
}

// redemptionTail is a redemptionObject's keys after the order; the first,
// channel, is always there.
type redemptionTail struct {
	Channel           map[string]any `json:"channel"`
	Customer          any            `json:"customer"`
	RelatedObjectType string         `json:"related_object_type"`
	RelatedObjectID   string         `json:"related_object_id"`
	Voucher           any            `json:"voucher"`
	PromotionTier     any            `json:"promotion_tier,omitempty"`
	Reward            any            `json:"reward,omitempty"`
	Gift              any            `json:"gift,omitempty"`
	LoyaltyCard       any            `json:"loyalty_card,omitempty"`
}

// redemptionCustomer is the customer a redemption shows, its keys in the
// order they had as a map (sorted).
type redemptionCustomer struct {
	Email    *string        `json:"email"`
	ID       string         `json:"id"`
	Metadata map[string]any `json:"metadata"`
	Name     *string        `json:"name"`
	Object   string         `json:"object"`
	SourceID *string        `json:"source_id"`
}

// redemptionJSON renders a redemption or rollback as the real service's
// redemption / redemption_rollback object.
func (h redemptionHandlers) redemptionJSON(c *gin.Context, r *ent.Redemption) *redemptionObject {
	out := &redemptionObject{
		redemptionHead: redemptionHead{ID: r.ID, Object: r.Object.String(), Date: timestamp(r.CreatedAt),
			CustomerID: r.CustomerID, TrackingID: r.TrackingID, Metadata: orEmpty(r.Metadata),
			Result: r.Result.String(), Status: r.Status.String(), Amount: r.Amount},
		Order: r.Order,
		redemptionTail: redemptionTail{RelatedObjectType: r.RelatedObjectType, RelatedObjectID: r.RelatedObjectID,
			Channel: r.Channel},
	}
	if r.Object == redemption.ObjectRedemption {
		out.Redemption = r.ParentID
	} else {
		out.Redemption, out.Reason = r.RolledBackID, r.Reason
	}
	if r.FailureCode != nil {
		out.FailureCode, out.FailureMessage = r.FailureCode, r.FailureMessage
	}
	if r.SessionKey != nil {
		out.Session = map[string]any{"key": *r.SessionKey}
	}
	if r.Reward != nil {
		out.Reward = rewardResultJSON(r.Reward)
	}
	if r.RollbackID != nil {
		out.RelatedRedemptions = map[string]any{"rollbacks": []any{map[string]any{"id": *r.RollbackID}}}
	}
	if cust := r.Edges.Customer; cust != nil && isClientView(c) {
		out.Customer = clientCustomer(cust.ID, cust.SourceID)
	} else if cust != nil {
		out.Customer = &redemptionCustomer{ID: cust.ID, Name: cust.Name, Email: cust.Email,
			SourceID: cust.SourceID, Metadata: orEmpty(cust.Metadata), Object: "customer"}
	}
	if r.RelatedObjectType == "promotion_tier" {
		out.PromotionTier = h.promotionTierJSON(c, r.RelatedObjectID)
	}
	if v := r.Edges.Voucher; v != nil {
		out.Voucher = h.vouchers.voucherJSON(c, v)
		if r.Amount != nil {
			switch v.Type {
			case "GIFT_VOUCHER":
				out.Gift = map[string]any{"amount": *r.Amount}
			case "LOYALTY_CARD":
				out.LoyaltyCard = map[string]any{"points": *r.Amount}
			}
		}
	}
	return out
}

// redemptionsJSON renders a list of history entries.
func (h redemptionHandlers) redemptionsJSON(c *gin.Context, rs []*ent.Redemption) []*redemptionObject {
	out := make([]*redemptionObject, len(rs))
	for i, r := range rs {
		out[i] = h.redemptionJSON(c, r)
	}
	return out
}

// promotionTierJSON is the tier a redemption of a promotion tier shows,
// as it is now (nil, shown as null, once the tier is deleted).
func (h redemptionHandlers) promotionTierJSON(c *gin.Context, id string) any {
	ctx := c.Request.Context()
	t, err := promotion.Tier(ctx, id) // also outside a request (webhooks), where h.root is not set
	if err != nil {
		return (*tierBody)(nil)
	}
	d, err := promotion.DetailsOf(ctx, t)
	if err != nil {
		return (*tierBody)(nil)
	}
	out := tierJSON(t, d)
	return &out
}

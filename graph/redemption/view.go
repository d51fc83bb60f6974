package redemption

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// The REST shapes of validation and redemption results. GraphQL shows the
// same values as JSON scalars (see schema.graphqls).

// orderItemView is one line of a calculated order.
type orderItemView struct {
	Object                string         `json:"object"`
	ProductID             *string        `json:"product_id,omitempty"`
	SkuID                 *string        `json:"sku_id,omitempty"`
	SourceID              *string        `json:"source_id,omitempty"`
	RelatedObject         *string        `json:"related_object,omitempty"`
	Quantity              int64          `json:"quantity"`
	InitialQuantity       int64          `json:"initial_quantity"`
	DiscountQuantity      int64          `json:"discount_quantity"`
	Price                 int64          `json:"price"`
	Amount                int64          `json:"amount"`
	InitialAmount         int64          `json:"initial_amount"`
	DiscountAmount        int64          `json:"discount_amount"`
	AppliedDiscountAmount int64          `json:"applied_discount_amount"`
	SubtotalAmount        int64          `json:"subtotal_amount"`
	Metadata              map[string]any `json:"metadata,omitempty"`
}

// orderView is the calculated order (OrderCalculated). Every amount is
// present, 0 included, so typed clients never meet a missing total.
type orderView struct {
	ID                         *string         `json:"id,omitempty"`
	SourceID                   *string         `json:"source_id,omitempty"`
	Status                     *string         `json:"status,omitempty"`
	Amount                     int64           `json:"amount"`
	InitialAmount              int64           `json:"initial_amount"`
	DiscountAmount             int64           `json:"discount_amount"`
	ItemsDiscountAmount        int64           `json:"items_discount_amount"`
	TotalDiscountAmount        int64           `json:"total_discount_amount"`
	TotalAmount                int64           `json:"total_amount"`
	AppliedDiscountAmount      int64           `json:"applied_discount_amount"`
	ItemsAppliedDiscountAmount int64           `json:"items_applied_discount_amount"`
	TotalAppliedDiscountAmount int64           `json:"total_applied_discount_amount"`
	Items                      []orderItemView `json:"items"`
	Metadata                   map[string]any  `json:"metadata"`
	CustomerID                 *string         `json:"customer_id"`
	Customer                   map[string]any  `json:"customer,omitempty"`
	CreatedAt                  *string         `json:"created_at,omitempty"`
	// Redemptions is the order's redemptions map: a map[string]any, or
	// its encoding (json.RawMessage) for a new order (orderEntry.document).
	Redemptions any    `json:"redemptions,omitempty"`
	Object      string `json:"object"`
}

// newOrderView renders the calculation's order with the request's order
// fields (and the stored order's id, once there is one).
func newOrderView(o *discount.Order, in *OrderInput, stored *ent.Order, cust *ent.Customer) *orderView {
	v := &orderView{
		Amount: o.Amount, InitialAmount: o.InitialAmount, DiscountAmount: o.DiscountAmount,
		ItemsDiscountAmount: o.ItemsDiscountAmount(), TotalDiscountAmount: o.TotalDiscountAmount(),
		TotalAmount: o.TotalAmount(), AppliedDiscountAmount: o.AppliedDiscountAmount,
		ItemsAppliedDiscountAmount: o.ItemsAppliedDiscountAmount(), TotalAppliedDiscountAmount: o.TotalAppliedDiscountAmount(),
		Items: make([]orderItemView, len(o.Items)), Metadata: map[string]any{}, Object: "order",
	}
	if in != nil {
		v.SourceID, v.Status = in.SourceID, in.Status
		if in.Metadata != nil {
			v.Metadata = in.Metadata
		}
	}
	if stored != nil {
		id, status, created := stored.ID, stored.Status.String(), clock.Format(stored.CreatedAt)
		v.ID, v.Status, v.SourceID, v.CreatedAt = &id, &status, stored.SourceID, &created
	}
	if cust != nil {
		v.CustomerID = &cust.ID
		v.Customer = map[string]any{"id": cust.ID, "object": "customer"}
	}
	for i, it := range o.Items {
		line := orderItemView{Object: "order_item", Quantity: it.Quantity, InitialQuantity: it.InitialQuantity,
			DiscountQuantity: it.DiscountQuantity, Price: it.Price, Amount: it.Amount, InitialAmount: it.InitialAmount,
			DiscountAmount: it.DiscountAmount, AppliedDiscountAmount: it.AppliedDiscountAmount, SubtotalAmount: it.Subtotal()}
		if in != nil && i < len(in.Items) && !it.Added {
			src := in.Items[i]
			line.SourceID, line.RelatedObject, line.Metadata = src.SourceID, src.RelatedObject, src.Metadata
		}
		if it.ProductID != "" {
			p := it.ProductID
			line.ProductID = &p
		}
		if it.SKUID != "" {
			s := it.SKUID
			line.SkuID = &s
		}
		v.Items[i] = line
	}
	return v
}

// listOf is the real service's small list envelope.
func listOf(data []any) map[string]any {
	if data == nil {
		data = []any{}
	}
	return map[string]any{"object": "list", "data_ref": "data", "data": data, "total": len(data)}
}

// redeemableResult renders one redeemable's outcome.
func (e *evaluation) redeemableResult(i int, requestID string, withOrder any) *RedeemableResult {
	s, out := e.states[i], e.outcomes[i]
	r := &RedeemableResult{Status: string(out.Status), ID: s.code(), Object: redeemableObject(s.input)}
	if v := s.voucher; v != nil {
		r.Metadata = shape.OrEmptyMap(v.Metadata)
		if out.Status != discount.StatusSkipped {
			r.Categories = s.categoriesView(e.rules)
		}
		r.CampaignID = v.CampaignID
		if cmp := v.Edges.Campaign; cmp != nil {
			r.CampaignName = &cmp.Name
		}
	} else if s.tier != nil {
		s.tierResult(r, out.Status == discount.StatusSkipped, e.rules) // tiers.go
	}
	switch out.Status {
	case discount.StatusApplicable:
		r.Result = e.applicableResult(s, out)
		r.ApplicableTo, r.InapplicableTo = e.applicableTo(s, &out.Result), s.inapplicableTo()
		r.Order = withOrder
	case discount.StatusInapplicable:
		f := s.failure
		if f == nil {
			f = failure(out.Key, s.code())
		}
		errObj := map[string]any{"code": f.code, "key": f.key, "message": f.message, "details": f.details,
			"request_id": requestID}
		if f.resourceID != "" {
			errObj["resource_id"], errObj["resource_type"] = f.resourceID, f.resourceType
		}
		if f.customMessage != "" {
			errObj["error"] = map[string]any{"message": f.customMessage}
		}
		r.Result = s.withBundle(map[string]any{"error": errObj}) // bundles.go
	default:
		r.Result = map[string]any{"details": map[string]any{"key": out.Key, "message": skipMessages[out.Key]}}
	}
	return r
}

var skipMessages = map[string]string{
	discount.KeyApplicableLimitExceeded:           "Applicable redeemables limit exceeded",
	discount.KeyPrecedingValidationFailed:         "Preceding validation failed",
	discount.KeyNoEffect:                          "Redeemable has no effect on the order",
	discount.KeyPerCategoryLimitExceeded:          "Applicable redeemables per category limit exceeded",
	discount.KeyExclusiveLimitExceeded:            "Applicable exclusive redeemables limit exceeded",
	discount.KeyExclusivePerCategoryLimitExceeded: "Applicable exclusive redeemables per category limit exceeded",
	discount.KeyExclusionRulesNotMet:              "Exclusion rules not met",
}

// discountResult is result of an APPLICABLE redeemable: the discount
// definition, the gift credits or the loyalty points (applicableResult
// adds the bundle).
func (e *evaluation) discountResult(s *redeemableState, out discount.Outcome) map[string]any {
	if s.tier != nil {
		return s.tierDiscount()
	}
	v := s.voucher
	switch v.Type {
	case jsonfield.VoucherTypeGift:
		balance := int64(0)
		if v.Gift != nil {
			balance = v.Gift.Balance
		}
		return map[string]any{"gift": map[string]any{"credits": out.Result.Total, "balance": balance}}
	case jsonfield.VoucherTypeLoyaltyCard:
		return map[string]any{"loyalty_card": map[string]any{"points": s.points},
			"reward": map[string]any{"id": s.reward.ID, "name": s.reward.Name, "points": s.points, "object": "reward"}}
	}
	if v.Discount == nil {
		return map[string]any{"discount": map[string]any{}}
	}
	d := *v.Discount  // encoded as it is stored, with is_dynamic always present
	s.markDynamic(&d) // formulas.go
	return map[string]any{"discount": &d}
}

package validationrule

import "strconv"

// The redemption rule names the service once accepted without enforcing
// (docs/promotions.md "Cart rules"): each is now either evaluated or
// refused when a rule is created.

// refusedNames are the reference's rule names this service refuses, with
// the reason given in the 400.
var refusedNames = map[string]string{
	"redemption.user.login": "validations and redemptions are called with application keys, not user logins; " +
		"use redemption.api_key",
	"redemption.count.per_user": "validations and redemptions are called with application keys, not user logins; " +
		"use redemption.count.per_api_key",
	"product.discount_applicable":          olderProductRule,
	"sku.discount_applicable":              olderProductRule,
	"product.metadata.discount_applicable": olderProductRule,
	"product.metadata.aggregated_quantity": olderProductRule,
	"product.metadata.aggregated_amount":   olderProductRule,
	"product.metadata.match_all":           olderProductRule,
}

const olderProductRule = "an option of the older product rules; use applicable_to for the discounted products and " +
	"order.items.any with nested order.items.aggregated_quantity / order.items.aggregated_amount rules"

// evalRedemptionName evaluates the redemption names of kind k: the gift
// credits and loyalty points the redemption takes, whether the voucher is
// linked to the customer, the custom event's metadata (none in a
// validation: its conditions see no value). A refused name stored before
// it was refused never holds.
func evalRedemptionName(k kind, mdKey string, ctx Context, all func(func(string, []any) bool) bool) bool {
	switch k {
	case kindGiftAmount:
		return all(func(op string, xs []any) bool { return numeric(op, xs, ctx.GiftAmount) })
	case kindPointsUsed:
		return all(func(op string, xs []any) bool { return numeric(op, xs, ctx.PointsUsed) })
	case kindLinkedCustomer:
		return all(func(op string, xs []any) bool {
			match := false
			for _, x := range xs {
				// true/false, or "true"/"false" (the reference's documents
				// allow strings and numbers as condition values).
				switch b := x.(type) {
				case bool:
					match = match || b == ctx.LinkedCustomer
				case string:
					match = match || b == strconv.FormatBool(ctx.LinkedCustomer)
				}
			}
			return setOp(op, match)
		})
	case kindCustomEventMeta:
		return all(func(op string, xs []any) bool { return metadata(op, xs, ctx.CustomEventMetadata, mdKey) })
	}
	return false
}

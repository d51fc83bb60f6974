package openapi

import (
	"github.com/promoengine/promoengine/graph/redemption"
)

// validations documents validating codes: the stacked POST /v1/validations
// and the legacy POST /v1/vouchers/{code}/validate (rest/redemptions.go),
// with the calculated order both show.
func validations(a *API) {
	a.Tag("Validations", "Checking codes against an order and a customer without redeeming them.")
	amounts := []Prop{
		Req("amount", Integer()), Req("initial_amount", Integer()), Req("discount_amount", Integer()),
		Req("applied_discount_amount", Integer()),
	}
	a.Schema("OrderItem", Object(append(amounts,
		Req("object", Const("order_item")),
		Opt("product_id", String()), Opt("sku_id", String()), Opt("source_id", String()),
		Opt("related_object", String()),
		Req("quantity", Integer()), Req("initial_quantity", Integer()), Req("discount_quantity", Integer()),
		Req("price", Integer()), Req("subtotal_amount", Integer()),
		Opt("metadata", Metadata()))...))
	a.Schema("Order", Object(append(amounts,
		Opt("id", String().Desc("The stored order's id, once redeemed.")),
		Opt("source_id", String().Null()),
		Opt("status", String().Desc("CREATED, PAID, CANCELED, ...")),
		Req("items_discount_amount", Integer()), Req("total_discount_amount", Integer()),
		Req("total_amount", Integer()), Req("items_applied_discount_amount", Integer()),
		Req("total_applied_discount_amount", Integer()),
		Req("items", Array(Ref("OrderItem")).Null()),
		Req("metadata", Metadata()),
		Req("customer_id", String().Null()),
		Opt("customer", Object(Req("id", String()), Req("object", Const("customer")))),
		Opt("created_at", DateTime()),
		Opt("redemptions", MapOf(Object(
			Req("date", DateTime()), Req("related_object_type", String()), Req("related_object_id", String()),
			Opt("related_object_parent_id", String().Desc("A promotion tier's campaign.")),
			Opt("stacked", Array(String())), Opt("rollback_id", String()), Opt("rollback_date", DateTime()),
		)).Desc("The order's redemptions by id.")),
		Req("object", Const("order")))...).Desc("The order with its discounts calculated (amounts in cents)."))
	a.Schema("ValidationError", Object(
		Req("code", Integer()), Req("key", String()), Req("message", String()),
		Req("details", String().Null()), Req("request_id", String()),
		Opt("resource_id", String()), Opt("resource_type", String()),
		Opt("error", Object(Req("message", String())).Desc("A failing validation rule's own error.message, when it sets one.")),
	).Desc("Why a code is not valid: the error object the redemption would answer."))
	smallList := V1List("data", applicableEntry(), true)
	a.Schema("RedeemableResult", FromGo[redemption.RedeemableResult]().With(
		Req("status", Enum("APPLICABLE", "INAPPLICABLE", "SKIPPED")),
		Req("object", Enum("voucher", "promotion_tier")),
		Opt("order", Ref("Order")),
		Opt("applicable_to", smallList),
		Opt("inapplicable_to", smallList),
		Opt("categories", Array(Ref("RedeemableCategory")).Desc("APPLICABLE and INAPPLICABLE vouchers: the voucher's category, else its campaign's ([] without one).")),
		Req("result", Object(
			Opt("discount", FreeObject().Desc("The voucher's discount, is_dynamic included.")),
			Opt("gift", Object(Req("credits", Integer()), Req("balance", Integer()))),
			Opt("loyalty_card", Object(Req("points", Integer()))),
			Opt("reward", Object(Req("id", String()), Req("name", String()), Req("points", Integer()),
				Req("object", Const("reward")))),
			Opt("error", Ref("ValidationError")),
			Opt("details", Object(Req("key", String()), Req("message", String()))),
			Opt("bundle", bundleResult()),
		).Desc("APPLICABLE: discount, gift or loyalty_card; INAPPLICABLE: error; SKIPPED: details; bundle with bundle_rules.")),
	))
	a.Schema("StackingRules", Object(
		Req("redeemables_limit", Integer()), Req("applicable_redeemables_limit", Integer()),
		Req("applicable_redeemables_per_category_limit", Integer()),
		Req("applicable_redeemables_category_limits", MapOf(Integer()).Desc("Per-category overrides of applicable_redeemables_per_category_limit, by category ID.")),
		Req("applicable_exclusive_redeemables_limit", Integer()),
		Req("applicable_exclusive_redeemables_per_category_limit", Integer()),
		Req("exclusive_categories", Array(String())), Req("joint_categories", Array(String())),
		Req("redeemables_application_mode", String()), Req("redeemables_sorting_rule", String()),
		Req("redeemables_products_application_mode", String()), Req("redeemables_no_effect_rule", String()),
		Req("no_effect_skip_categories", Array(String())), Req("no_effect_redeem_anyway_categories", Array(String())),
		Req("redeemables_rollback_order_mode", String()),
	))
	a.Schema("Session", Object(Req("key", String()), Req("type", Const("LOCK")), Req("ttl", Integer()),
		Req("ttl_unit", String())).Desc("The session that holds the validated codes locked."))
	redeemables := Array(Ref("RedeemableResult"))
	a.Schema("ValidationResult", Object(
		Req("id", String()),
		Req("valid", Boolean()),
		Req("redeemables", redeemables),
		Opt("inapplicable_redeemables", redeemables.Desc("The INAPPLICABLE redeemables (also listed in redeemables in ALL mode); left out when none.")),
		Opt("skipped_redeemables", redeemables.Desc("The SKIPPED redeemables (also listed in redeemables in ALL mode); left out when none.")),
		Opt("order", Ref("Order")),
		Opt("tracking_id", String()),
		Opt("session", Ref("Session")),
		Req("stacking_rules", Ref("StackingRules")),
	))
	a.Schema("StackedRedemptionRequest", Input[redemption.StackedRedemptionInput]("redeemables"))
	a.Schema("VoucherRedemptionRequest", Input[redemption.VoucherRedemptionInput]())
	a.Schema("LegacyValidation", Object(
		Req("valid", Boolean()),
		Req("code", String()),
		Req("metadata", Metadata()),
		Req("tracking_id", String().Null()),
		Opt("customer_id", String()),
		Opt("reason", String().Desc("Why the code is not valid.")),
		Opt("error", Ref("ValidationError")),
		Opt("applicable_to", smallList),
		Opt("inapplicable_to", smallList),
		Opt("campaign_id", String().Null()),
		Opt("campaign", String()),
		Opt("start_date", DateTime()),
		Opt("expiration_date", DateTime()),
		Opt("discount", FreeObject()),
		Opt("gift", Object(Req("amount", Integer()), Req("balance", Integer()), Req("effect", String().Null()),
			Req("credits", Integer()))),
		Opt("loyalty", Object(Req("points_cost", Integer()))),
		Opt("reward", Object(Req("id", String()), Req("points", Integer()))),
		Opt("order", Ref("Order")),
		Opt("session", Ref("Session")),
	).Desc("The legacy validation of one code: valid with what it gives, or not with reason and error."))
	a.Add("POST /v1/validations", Op{Summary: "Validate redeemables", Auth: ServerAPI,
		Body: Ref("StackedRedemptionRequest"), BodyRequired: true, Response: Ref("ValidationResult")})
	a.Add("POST /v1/vouchers/{code}/validate", Op{Summary: "Validate a voucher", Auth: ServerAPI,
		Description: "The legacy validation; an unknown code is a 404.",
		PathParams:  map[string]string{"code": "The voucher's code."},
		Body:        Ref("VoucherRedemptionRequest"), Response: Ref("LegacyValidation")})
}

// applicableEntry is one entry of applicable_to / inapplicable_to: a
// configured applicable_to entry or a cart product/SKU it matched, with
// the lines it covered.
func applicableEntry() *Schema {
	return Object(append(budgetProps(), Req("object", Enum("product", "sku", "products_collection")), Req("id", String()),
		Req("effect", Enum("APPLY_TO_EVERY", "APPLY_TO_CHEAPEST", "APPLY_TO_MOST_EXPENSIVE", "APPLY_FROM_CHEAPEST", "APPLY_FROM_MOST_EXPENSIVE")),
		Opt("source_id", String()), Opt("product_id", String()), Opt("product_source_id", String()),
		Opt("price", Integer()), Opt("price_formula", String().Desc("The new price per line (ORDER_ITEM_PRICE: the line's price); price is its fallback.")),
		Opt("target", Enum("ITEM", "UNIT")),
		Opt("quantity_limit", Integer()), Opt("aggregated_quantity_limit", Integer()), Opt("amount_limit", Integer()),
		Opt("aggregated_amount_limit", Integer()), Opt("skip_initially", Integer()), Opt("repeat", Integer()),
		Opt("order_item_indices", Array(Integer()).Desc("0-based order lines discounted, in application order.")),
		Opt("order_item_units", Array(Object(Req("index", Integer()), Opt("units", Array(Integer())),
			Opt("units_limit_exceeded", Boolean()))).Desc("Per line the 1-based unit numbers discounted; past 1,000 units in the order only units_limit_exceeded.")))...)
}

// budgetProps are an entry's persistent unit budgets
// (product_*_quantity_limit and their _formula), as configured.
func budgetProps() []Prop {
	var out []Prop
	for _, in := range []string{"", "in_collection_"} {
		for _, cust := range []string{"", "customer_"} {
			for _, scope := range []string{"campaign", "promotion_tier"} {
				name := "product_" + in + cust + scope + "_quantity_limit"
				out = append(out, Opt(name, Integer()), Opt(name+"_formula", String()))
			}
		}
	}
	return out
}

// bundleResult is result.bundle: the bundles bundle_rules found in the
// cart (docs/promotions.md "Bundles").
func bundleResult() *Schema {
	return Object(Req("quantity", Integer()), Req("limit", Integer()),
		Req("identified", Array(Object(Req("id", String()), Req("object", Enum("product", "sku")),
			Req("item_index", Integer()), Req("item_quantity", Integer())))),
		Opt("missing", Array(Object(Req("id", String()), Req("object", Enum("product", "sku", "products_collection")),
			Req("item_quantity", Integer())))),
	).Desc("Complete bundles found (up to limit; the discount's multiplier), the lines used, and what is missing without one.")
}

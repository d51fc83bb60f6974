package openapi

import "github.com/promoengine/promoengine/graph/qualification"

// qualifications documents POST /v1/qualifications and its client-side
// form (rest/qualifications.go, docs/qualifications.md).
func qualifications(a *API) {
	a.Tag("Qualifications", "Which redeemables fit a customer and a cart: nothing is written.")
	defer legacyQualifications(a)
	tierEntry := Object(
		Req("id", String().Desc("The voucher's code, promo_…, stack_… or camp_…")),
		Req("object", Enum("voucher", "promotion_tier", "promotion_stack", "campaign").
			Desc("campaign: a code campaign of which the customer holds no code yet (ALL, AUDIENCE_ONLY)")),
		Opt("created_at", DateTime()),
		Req("result", FreeObject().Desc("{discount} | {gift: {credits, balance, locked_credits (with session.key)}} | {loyalty_card} (a stack: {}); bundle with bundle_rules")),
		Opt("order", Ref("Order").Desc("The order with this redeemable alone applied (a stack: all its tiers).")),
		Req("applicable_to", FreeObject()),
		Req("inapplicable_to", FreeObject()),
		Req("metadata", Metadata()),
		Opt("categories", Array(Ref("RedeemableCategory"))),
		Opt("name", String().Desc("expand redeemable (a campaign: its name)")),
		Opt("banner", String().Desc("expand redeemable")),
		Opt("campaign_id", String().Desc("expand redeemable; not on a campaign")),
		Opt("campaign_name", String().Desc("expand redeemable; not on a campaign")),
		Opt("validation_rules_assignments", V1List("data", Object(
			Req("id", String()), Req("rule_id", String()), Req("related_object_id", String()),
			Req("related_object_type", Enum("voucher", "campaign", "promotion_tier")), Req("created_at", DateTime()),
			Req("object", Const("validation_rules_assignment")),
			Req("validation_status", Enum("VALID", "PARTIALLY_VALID", "INVALID")),
			Opt("validation_omitted_rules", Array(String()).Desc("The rules left out (PARTIALLY_VALID).")),
		), true).Desc("expand validation_rules")),
	)
	entry := tierEntry.With(Opt("redeemables", Array(FreeObject()).
		Desc("A stack's tiers, as the stacked validation shows them (without status).")))
	a.Schema("QualificationsRequest", Input[qualification.Input]())
	a.Schema("Qualifications", Object(
		Req("redeemables", Object(
			Req("object", Const("list")), Req("data_ref", Const("data")), Req("data", Array(entry)),
			Req("total", Integer().Desc("The page's size.")), Req("has_more", Boolean()),
			Opt("more_starting_after", DateTime().Desc("options.starting_after of the next page.")),
		)),
		Opt("tracking_id", String()),
		Req("order", Ref("Order")),
		Req("stacking_rules", Ref("StackingRules")),
	))
	desc := "The redeemables of the scenario (ALL, CUSTOMER_WALLET, AUDIENCE_ONLY, PRODUCTS, PRODUCTS_DISCOUNT, " +
		"PROMOTION_STACKS, PRODUCTS_BY_CUSTOMER, PRODUCTS_DISCOUNT_BY_CUSTOMER) that fit the customer (never created) " +
		"and the order, newest first or by discount, each computed alone. Budgets and per-customer counts are not " +
		"checked; at most 1,000 candidates are evaluated per request. options.limit 1–50 (default 5); an unknown " +
		"scenario, filter field or operator is a 400."
	a.Add("POST /v1/qualifications", Op{Summary: "Check eligibility", Auth: ServerAPI, Description: desc,
		Body: Ref("QualificationsRequest"), Response: Ref("Qualifications")})
	a.Add("POST /client/v1/qualifications", Op{Summary: "Check eligibility from a web page", Auth: ClientAPI,
		Description: desc + " The customer is named by source_id (customer.id is a 400); the customer's held codes " +
			"are considered only when the project enabled client_list_vouchers_enabled.",
		Body: Ref("QualificationsRequest"), Response: Ref("Qualifications")})
}

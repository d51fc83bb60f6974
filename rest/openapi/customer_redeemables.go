package openapi

// customerRedeemables documents GET /v1/customers/{customerId}/redeemables
// (rest/customer_redeemables.go).
func customerRedeemables(a *API) {
	a.Tag("Customers", "The project's customers, found by ID or source_id.")
	entry := Object(
		Req("id", String().Desc("rh_…")),
		Req("created_at", DateTime().Desc("When the customer was given it (its first publication to them).")),
		Req("redeemable_id", String()),
		Req("redeemable_object", Const("voucher")),
		Req("customer_id", String()),
		Req("holder_role", Enum("OWNER", "REFERRER", "REFEREE")),
		Req("campaign_id", String().Null()),
		Req("campaign_type", String().Null()),
		Req("voucher_type", Enum("DISCOUNT_VOUCHER", "GIFT_VOUCHER", "LOYALTY_CARD")),
		Req("object", Const("customer_redeemable")),
		Req("redeemable", Object(
			Req("type", Const("voucher")),
			Req("voucher", Ref("Voucher")),
			Req("status", Enum("ACTIVE", "USED", "DISABLED", "NOT_ACTIVE_YET", "EXPIRED", "NO_BALANCE")),
		)),
	)
	a.Add("GET /v1/customers/{customerId}/redeemables", Op{Summary: "List a customer's redeemables", Auth: ServerAPI,
		PathParams: map[string]string{"customerId": "The customer's id or source_id."},
		Description: "The vouchers, gift cards and loyalty cards the customer holds, in id order. Filters: " +
			"filters[<field>][conditions][$is|$in|$is_not|$not_in]=… on id, redeemable_id, redeemable_object, holder_role, " +
			"campaign_id, campaign_type, voucher_type; filters[created_at][conditions][$before|$after]; filters[junction]=AND|OR.",
		Query: []Param{LimitParam, OrderParam("id"),
			Query("starting_after_id", String(), "The rh_ id of the entry the page starts after (more_starting_after).")},
		Response: Object(
			Req("object", Const("list")), Req("data_ref", Const("data")), Req("data", Array(entry)),
			Req("total", Integer().Desc("Exact up to 10,000.")), Req("has_more", Boolean()),
			Opt("more_starting_after", String().Desc("The starting_after_id of the next page, when there is one.")),
		)})
}

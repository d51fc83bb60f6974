package openapi

// customerActivities documents GET /v1/customers/{customerId}/activities
// and its current form …/activity (rest/customer_activities.go); it
// follows customers in areas.
func customerActivities(a *API) {
	activity := a.Schema("CustomerActivity", Object(
		Req("id", String().Desc("The ID of the record the activity comes from (pub_…, r_…, cev_…).")),
		Req("type", String().Desc("customer.created, customer.publication.succeeded, customer.redemption.succeeded, ...")),
		Req("data", FreeObject().Desc("The objects involved.")),
		Req("created_at", DateTime()),
		Req("group_id", String().Null()),
	))
	query := []Param{LimitParam, OrderParam("created_at"),
		Query("starting_after", DateTime(), "Continue after this time."),
		Query("starting_after_id", String(), "Continue after this activity."),
		Query("campaign_type", EnumOf(campaignTypes...), "Activities of such campaigns only."),
		Query("campaign_id", String(), "Activities of this campaign only."),
		Query("start_date", DateTime(), ""), Query("end_date", DateTime(), "")}
	customer := map[string]string{"customerId": "The customer's ID or source_id."}
	a.Add("GET /v1/customers/{customerId}/activities", Op{Summary: "List a customer's activities", Auth: ServerAPI,
		PathParams: customer, Query: query,
		Response: V1List("data", activity, true).With(Req("has_more", Boolean()))})
	current := a.Schema("CustomerActivityEvent", Object(
		Req("id", String().Desc("The ID of the record the activity comes from (pub_…, r_…, cev_…).")),
		Req("type", String().Desc("The customer event, e.g. customer.redemption.succeeded.")),
		Req("data", Object(
			Req("data", FreeObject().Desc("The objects involved (as in the activities list).")),
			Req("event_source", Object(Req("channel", EnumOf("API", "CLIENT_API", "USER_PORTAL", "INTERNAL")))),
		)),
		Req("created_at", DateTime()),
		Opt("group_id", String().Desc("The request that caused it, when known.")),
	))
	a.Add("GET /v1/customers/{customerId}/activity", Op{Summary: "List a customer's activity", Auth: ServerAPI,
		Description: "The current form of the activities list: type and category filters, a cursor instead of a total. " +
			"Categories: ACTION (what was done through the API: created, published, validated, redeemed, rolled back, " +
			"custom events, orders), EFFECT (what rules did in consequence: segments, referrals, rewards, points, tiers).",
		PathParams: customer,
		Query: append(query, Query("type", String(), "Activities of this customer event type only."),
			Query("category", EnumOf("ACTION", "EFFECT"), "Activities of this category only.")),
		Response: V1List("data", current, false).With(Req("has_more", Boolean()),
			Opt("more_starting_after", String().Desc("The ID to send as starting_after_id for the next page.")))})
}

package openapi

// customerActivities documents GET /v1/customers/{customerId}/activities
// (rest/customer_activities.go); it follows customers in areas.
func customerActivities(a *API) {
	activity := a.Schema("CustomerActivity", Object(
		Req("id", String().Desc("The ID of the record the activity comes from (pub_…, r_…, cev_…).")),
		Req("type", String().Desc("customer.created, customer.publication.succeeded, customer.redemption.succeeded, ...")),
		Req("data", FreeObject().Desc("The objects involved.")),
		Req("created_at", DateTime()),
		Req("group_id", String().Null()),
	))
	a.Add("GET /v1/customers/{customerId}/activities", Op{Summary: "List a customer's activities", Auth: ServerAPI,
		PathParams: map[string]string{"customerId": "The customer's ID or source_id."},
		Query: []Param{LimitParam, OrderParam("created_at"),
			Query("starting_after", DateTime(), "Continue after this time."),
			Query("starting_after_id", String(), "Continue after this activity."),
			Query("campaign_type", EnumOf(campaignTypes...), "Activities of such campaigns only."),
			Query("campaign_id", String(), "Activities of this campaign only."),
			Query("start_date", DateTime(), ""), Query("end_date", DateTime(), "")},
		Response: V1List("data", activity, true).With(Req("has_more", Boolean()))})
}

package openapi

// campaignSummary documents GET /v1/campaigns/{campaignId}/summary
// (rest/campaign_summary.go); it follows campaigns in areas.
func campaignSummary(a *API) {
	counts := func(names ...string) []Prop {
		props := make([]Prop, len(names))
		for i, n := range names {
			props[i] = Opt(n, Integer())
		}
		return props
	}
	s := Object(
		Req("object", Const("campaign_summary")),
		Req("campaign", Ref("Campaign")),
		Req("redemptions", Integer()), Req("redemptions_succeeded", Integer()), Req("redemptions_failed", Integer()),
		Req("rollbacks", Integer()), Req("rollbacks_succeeded", Integer()), Req("rollbacks_failed", Integer()),
		Req("validations", Integer().Desc("Validations are not recorded: 0.")),
		Req("validations_succeeded", Integer()), Req("validations_failed", Integer()),
		Req("orders_amount", Integer()), Req("orders_rolledback_amount", Integer()),
	).With(counts("vouchers_created", "vouchers_deleted", "publications", "publications_succeeded", "publications_failed",
		"discounted_amount", "rolledback_discounted_amount", "referred_customers",
		"created_vouchers_amount", "amount_added", "amount_deleted", "amount_redeemed", "amount_rolledback", "amount_subtracted",
		"created_vouchers_points", "points_deleted", "points_subtracted", "points_added", "points_rewarded", "points_redeemed",
		"points_rolledback", "points_expired", "points_transferred_out", "points_transferred_in", "pending_points_added",
		"pending_points_subtracted", "pending_points_activated", "pending_points_canceled")...)
	a.Add("GET /v1/campaigns/{campaignId}/summary", Op{Summary: "Get a campaign summary", Auth: ServerAPI,
		Description: "Counts and sums of the campaign's redemptions, rollbacks, vouchers and publications, and of its " +
			"gift credits, loyalty points or referrals by campaign type (docs/campaigns.md says which are exact).",
		PathParams: map[string]string{"campaignId": "The campaign's ID or name."},
		Query: []Param{Query("start_date", Date(), "First day (UTC) counted."),
			Query("end_date", Date(), "Last day (UTC) counted.")},
		Response: s})
}

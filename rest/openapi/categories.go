package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph"
)

// categories documents /v1/categories (rest/categories.go).
func categories(a *API) {
	a.Tag("Categories", "Categories group campaigns for stacking; a campaign names its category by ID or name.")
	category := a.Schema("Category", Object(
		Req("id", String()),
		Req("name", String().Desc("Unique within the project.")),
		Req("hierarchy", Integer().Desc("0 or more; lower is applied first.")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("category")),
	))
	id := map[string]string{"categoryId": "The category's ID (cat_…)."}
	body := Input[graph.CategoryInput]("name", "hierarchy")
	a.Add("GET /v1/categories", Op{Summary: "List categories", Auth: ServerAPI,
		Query: []Param{Query("limit", Integer().Range(1, 100), "Items per page (1-100, default 100)."),
			Query("starting_after_id", String(), "The last category of the previous page.")},
		Response: V1List("data", category, true).With(Req("has_more", Boolean()))})
	a.Add("POST /v1/categories", Op{Summary: "Create a category", Auth: ServerAPI, Body: body, BodyRequired: true,
		Response: category, Errors: []int{http.StatusConflict}})
	a.Add("GET /v1/categories/{categoryId}", Op{Summary: "Get a category", Auth: ServerAPI, PathParams: id, Response: category})
	a.Add("PUT /v1/categories/{categoryId}", Op{Summary: "Update a category", Auth: ServerAPI, PathParams: id,
		Body: body, BodyRequired: true, Response: category, Errors: []int{http.StatusConflict}})
	a.Add("DELETE /v1/categories/{categoryId}", Op{Summary: "Delete a category", Auth: ServerAPI, PathParams: id,
		Description: "Campaigns and vouchers of the category are left without one.", Status: http.StatusNoContent})
}

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

// voucherBulk documents POST /v1/vouchers/import and /v1/vouchers/bulk/async
// (rest/voucher_import.go); it follows voucherLifecycle in areas.
func voucherBulk(a *API) {
	a.Add("POST /v1/vouchers/import", Op{Summary: "Import vouchers", Auth: ServerAPI,
		Description: "Standalone vouchers with their codes, imported by an async action (VOUCHERS.IMPORT).",
		Body:        Array(Input[graph.CreateVoucherInput]("code")), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
	a.Add("POST /v1/vouchers/bulk/async", Op{Summary: "Update vouchers' metadata in bulk", Auth: ServerAPI,
		Description: "Sets metadata keys of each code by an async action (VOUCHERS.BULK_UPDATE).",
		Body:        Array(Input[graph.VoucherMetadataUpdate]("code", "metadata")), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
}

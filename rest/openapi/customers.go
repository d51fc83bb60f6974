package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
)

// customers documents /v1/customers (rest/customers.go,
// rest/customer_lifecycle.go) and the customer object other answers embed.
func customers(a *API) {
	a.Tag("Customers", "The project's customers, found by ID or source_id.")
	redemptions := Object(
		Req("total_redeemed", Integer()), Req("total_failed", Integer()), Req("total_succeeded", Integer()),
		Req("total_rolled_back", Integer()), Req("total_rollback_failed", Integer()),
		Req("total_rollback_succeeded", Integer()),
		Req("gift", Object(Req("redeemed_amount", Integer()), Req("amount_to_go", Integer()))),
		Req("loyalty_card", Object(Req("redeemed_points", Integer()), Req("points_to_go", Integer()))),
	)
	a.Schema("Customer", Object(
		Req("id", String()),
		Req("source_id", String().Null().Desc("The caller's own customer id.")),
		Req("name", String().Null()),
		Req("description", String().Null()),
		Req("email", String().Null()),
		Req("phone", String().Null()),
		Req("birthday", String().Null().Desc("YYYY-MM-DD.")),
		Req("address", FromGo[*jsonfield.CustomerAddress]()),
		Opt("metadata", Metadata().Desc("Left out while the customer has none, as the real service does.")),
		Req("summary", Object(Req("redemptions", redemptions), Req("orders", Object(
			Req("total_amount", Integer().Desc("The sum of the amounts of the customer's PAID and FULFILLED orders.")),
			Req("total_count", Integer()), Req("average_amount", Integer().Desc("Rounded down.")),
			Req("last_order_amount", Integer().Desc("0 before the first counted order.")),
			Opt("last_order_date", DateTime().Desc("Left out before the first counted order, as the real service does.")),
		))).Null().
			Desc("Redemption and order counts; null where the customer is embedded in another object.")),
		Req("loyalty", FreeObject().Null().Desc("Always null for now.")),
		Req("referrals", Object(
			Req("total", Integer()),
			Req("campaigns", Array(Object(
				Req("campaign_id", String()), Req("referrer_id", String()), Req("referee_id", String()),
				Req("related_object_id", String()), Req("related_object_type", Const("customer_event")),
				Req("date", DateTime()),
			))),
		).Null().Desc("The referrals the customer took part in; null when none (or embedded).")),
		Req("system_metadata", FreeObject()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("assets", Object(
			Req("cockpit_url", String().Null()),
			Req("cockpit_preference_center_url", String().Null()),
		).Desc("Links of the real service's customer cockpit; null here (not hosted).")),
		Req("object", Const("customer")),
	))
	customer := Ref("Customer")
	body := a.Schema("CustomerRequest", Input[customerpkg.CustomerInput]().
		Desc("A customer's fields; metadata is merged. birthdate is accepted for birthday."))
	id := map[string]string{"customerId": "The customer's ID or source_id."}
	a.Add("POST /v1/customers", Op{Summary: "Create or update a customer", Auth: ServerAPI,
		Description: "Creates the customer, or updates the one with the given id or source_id.",
		Body:        body, BodyRequired: true, Response: customer})
	a.Add("GET /v1/customers", Op{Summary: "List customers", Auth: ServerAPI,
		Query: []Param{LimitParam, PageParam,
			Query("email", String(), ""), Query("name", String(), ""), Query("city", String(), ""),
			Query("segment_id", String(), "Segment ID."),
			Query("segment", String(), "Segment ID (the older name of segment_id)."),
			Query("created_at[before]", DateTime(), ""), Query("created_at[after]", DateTime(), ""),
			Query("updated_at[before]", DateTime(), ""), Query("updated_at[after]", DateTime(), ""),
			Query("starting_after", DateTime(), "Scroll: customers created after this time."),
			OrderParam("created_at", "updated_at", "source_id")},
		Response: V1List("customers", customer, true).With(Req("has_more", Boolean()))})
	a.Add("GET /v1/customers/{customerId}", Op{Summary: "Get a customer", Auth: ServerAPI, PathParams: id,
		Response: customer})
	a.Add("PUT /v1/customers/{customerId}", Op{Summary: "Update a customer", Auth: ServerAPI, PathParams: id,
		Body: body, Response: customer})
	a.Add("DELETE /v1/customers/{customerId}", Op{Summary: "Delete a customer", Auth: ServerAPI, PathParams: id,
		Status: http.StatusNoContent})
	a.Add("POST /v1/customers/{customerId}/permanent-deletion", Op{Summary: "Delete a customer permanently",
		Auth: ServerAPI, PathParams: id,
		Description: "The same deletion as DELETE, answered with the deletion record.",
		Response: Object(
			Req("id", String()),
			Req("created_at", DateTime()),
			Req("related_object_id", String()),
			Req("related_object", Const("customer")),
			Req("status", Const("DONE")),
			Req("object", Const("pernament_deletion").Desc("Spelt as the real service spells it.")),
			Req("data_json", MapOf(Integer()).Desc("Counts of what was deleted (events, segments, publications, ...).")),
		)})
	a.Add("GET /v1/customers/{customerId}/segments", Op{Summary: "List a customer's segments", Auth: ServerAPI,
		PathParams: id, Response: V1List("data", Ref("Segment"), true)})
}

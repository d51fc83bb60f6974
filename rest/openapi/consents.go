package openapi

// consents documents the legacy consents calls SDK 2.9 still makes
// (rest/consents.go; not in the current reference documents — the SDK's
// types are the contract; docs/customers.md "Consents").
func consents(a *API) {
	a.Tag("Consents", "Legacy marketing consents: listed over REST, defined through GraphQL.")
	item := a.Schema("Consent", Object(
		Req("id", String().Desc("cnst_…")),
		Req("name", String()),
		Req("description", String()),
		Req("category", String()),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime()),
		Req("object", Const("consent")),
	))
	group := a.Schema("ConsentGroup", Object(
		Req("id", String().Desc("cgrp_…")),
		Req("name", String()),
		Req("description", String()),
		Req("consents", Array(String()).Desc("The ids of its consents.")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime()),
		Req("object", Const("consent_group")),
	))
	list := func(of *Schema) *Schema {
		return Object(Req("object", Const("list")), Req("total", Integer()), Req("data_ref", Const("data")),
			Req("data", Array(of)))
	}
	listing := Object(Req("groups", list(group)), Req("consents", list(item)))
	a.Add("GET /v1/consents", Op{Summary: "List consents", Auth: ServerAPI,
		Description: "Every consent group and consent of the project (at most 100 each), oldest first.",
		Response:    listing})
	changes := MapOf(Boolean()).Desc(`{"cnst_…": true (given) | false (withdrawn), "unsubscribed": true (withdraws every consent)}.`)
	update := Op{Summary: "Update customer's consents", Auth: ServerAPI,
		Description: "Gives and withdraws the customer's consents; answers 200 with an empty body. An unknown " +
			"consent id is a 404 (resource_type consent) and nothing changes.",
		PathParams: map[string]string{"customerId": "The customer's ID or source_id."},
		Body:       changes, BodyRequired: true}
	a.Add("PUT /v1/customers/{customerId}/consents", update)
	a.Tag("Client API", "Calls web pages make with a client-side key from a trusted origin.")
	a.Add("GET /client/v1/consents", Op{Summary: "List consents from a web page", Auth: ClientAPI,
		Description: "As GET /v1/consents.", Response: listing})
	update.Summary, update.Auth = "Update customer's consents from a web page", ClientAPI
	a.Add("PUT /client/v1/customers/{customerId}/consents", update)
}

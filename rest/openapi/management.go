package openapi

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/access"
)

// management documents /management/v1/projects: projects, their branding,
// users and webhook token (rest/management.go,
// rest/management_projects.go). Every route takes management keys; an
// unknown project is a 404, a plan without the feature a 402.
func management(a *API) {
	a.Tag("Management", "Projects and their settings, with management keys.")
	projectObject := Object(
		Req("id", String()),
		Req("name", String()),
		Req("description", String().Null()),
		Req("timezone", String()),
		Req("currency", String().Desc("ISO 4217 code.")),
		Req("dial_code", String().Null()),
		Req("webhook_version", String()),
		Req("api_version", String()),
		Req("client_trusted_domains", Array(String()).Desc("Origins the client-side keys work from.")),
		Req("client_redeem_enabled", Boolean()),
		Req("client_publish_enabled", Boolean()),
		Req("client_list_vouchers_enabled", Boolean()),
		Req("client_create_customer_enabled", Boolean()),
		Req("client_loyalty_events_enabled", Boolean()),
		Req("client_set_voucher_expiration_date_enabled", Boolean()),
		Req("is_sandbox", Boolean()),
		Req("webhook_token", String().Desc("Signs the project's webhooks.")),
		Req("case_sensitive_codes", Boolean().Desc("Always true: a code matches exactly.")),
		Req("cluster_id", String().Desc("Always eu1: every project lives on this deployment.")),
		Req("api_usage_notifications", usageNotifications()),
		Req("webhooks_callout_notifications", calloutNotifications()),
	)
	project := a.Schema("Project", projectObject)
	key := Object(Req("app_id", String()), Req("app_token", String()))
	input := Input[access.ProjectInput]()
	id := map[string]string{"projectId": "The project's ID."}
	a.Add("GET /management/v1/projects", Op{Summary: "List projects", Auth: Management,
		Query: []Param{LimitParam, PageParam}, Response: V1List("data", project, true)})
	a.Add("POST /management/v1/projects", Op{Summary: "Create a project", Auth: Management,
		Description: "The project with its first server- and client-side keys, whose tokens are shown only here.",
		Body:        input.With(Req("name", input.Properties["name"])), BodyRequired: true,
		Response: projectObject.With(Req("server_side_key", key), Req("client_side_key", key)),
		Errors:   []int{409}})
	a.Add("GET /management/v1/projects/{projectId}", Op{Summary: "Get a project", Auth: Management,
		PathParams: id, Response: project})
	a.Add("PUT /management/v1/projects/{projectId}", Op{Summary: "Update a project", Auth: Management,
		PathParams: id, Body: input, Response: project, Errors: []int{409}})
	a.Add("POST /management/v1/projects/{projectId}/webhook-token/regenerate", Op{
		Summary: "Regenerate a project's webhook token", Auth: Management, PathParams: id, Response: project})
	a.Add("POST /management/v1/projects/{projectId}/branding", Op{Summary: "Create a brand", Auth: Management,
		PathParams: id,
		Body: Object(
			Req("brand", Input[jsonfield.Brand]("name")),
			Req("address", Input[jsonfield.Address]()),
			Req("contact", Input[jsonfield.Contact]()),
			Opt("cockpits", Input[jsonfield.Cockpits]()),
		), BodyRequired: true,
		Response: Object(
			Req("id", String()),
			Req("brand", FromGo[jsonfield.Brand]()),
			Req("address", FromGo[jsonfield.Address]()),
			Req("contact", FromGo[jsonfield.Contact]()),
			Req("cockpits", FromGo[jsonfield.Cockpits]()),
		), Errors: []int{402, 409}})
	a.Add("GET /management/v1/projects/{projectId}/users", Op{Summary: "List a project's users", Auth: Management,
		PathParams: id, Errors: []int{402},
		Response: V1List("data", Object(
			Req("id", String()),
			Req("login", String()),
			Req("email", String()),
			Req("first_name", String()),
			Req("last_name", String()),
			Req("projects", MapOf(String()).Desc("Role by project ID (ADMIN, USER, ...).")),
			Req("is_owner", Boolean()),
		), true)})
}

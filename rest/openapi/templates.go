package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/access"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/template"
)

// templates documents campaign templates (rest/templates), locations
// (rest/locations), the management template routes and the user
// invitation (rest/management/templates.go), and a campaign's transactions
// export (rest/campaign_export.go).
func templates(a *API) {
	a.Tag("Templates", "Campaign templates: stored campaign set-ups that make campaigns and promotion tiers.")
	tpl := a.Schema("CampaignTemplate", Object(
		Req("id", String()),
		Req("name", String()),
		Opt("description", String()),
		Req("campaign_type", Enum("DISCOUNT_COUPONS", "GIFT_VOUCHERS")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime()),
		Req("object", Const("campaign_template")),
	))
	list := Object(
		Req("object", Const("list")),
		Req("data_ref", Const("data")),
		Req("data", Array(tpl)),
		Opt("total", Integer().Desc("With include_total=true.")),
		Req("has_more", Boolean()),
		Opt("more_starting_after", String().Desc("The last template's id, when has_more.")),
	)
	listQuery := []Param{LimitParam,
		Query("starting_after_id", String(), "Continue after this template (in the list's order)."),
		Query("order", Enum("id", "-id"), "id (default, oldest first) or -id."),
		Query("include_total", Boolean(), "Add the number of all matches."),
		{Name: "filters", Schema: FreeObject(), Style: "deepObject",
			Description: "Filters over id, name and campaign_type: filters[name][conditions][$starts_with]=Spring."}}
	id := map[string]string{"campaignTemplateId": "The template's ID (camp_tpl_…)."}
	created := Array(Object(Req("id", String()), Req("object", Const("validation_rules"))))
	base := "/v1/templates/campaigns"
	a.Add("GET "+base, Op{Summary: "List campaign templates", Auth: ServerAPI, Query: listQuery, Response: list})
	a.Add("POST "+base, Op{Summary: "Create a campaign template", Auth: ServerAPI,
		Description: "From a DISCOUNT_COUPONS or GIFT_VOUCHERS campaign (campaign_id) or a promotion tier (promotion_tier_id), exactly one.",
		Body:        Input[template.CreateTemplateInput]("name"), BodyRequired: true, Response: tpl, Errors: []int{404, 409}})
	a.Add("GET "+base+"/{campaignTemplateId}", Op{Summary: "Get a campaign template", Auth: ServerAPI, PathParams: id,
		Query: []Param{Query("expand", Const("json_template"), "Accepted; the stored set-up is not shown.")}, Response: tpl})
	a.Add("PUT "+base+"/{campaignTemplateId}", Op{Summary: "Update a campaign template", Auth: ServerAPI, PathParams: id,
		Description: "Its name or description; a null description removes it.",
		Body:        Input[template.UpdateTemplateInput](), BodyRequired: true, Response: tpl, Errors: []int{409}})
	a.Add("DELETE "+base+"/{campaignTemplateId}", Op{Summary: "Delete a campaign template", Auth: ServerAPI,
		PathParams: id, Status: http.StatusNoContent})
	a.Add("POST "+base+"/{campaignTemplateId}/campaign-setup", Op{Summary: "Create a campaign from a template",
		Auth: ServerAPI, PathParams: id, Description: "Each validation rule of the template is copied as a new rule of the campaign.",
		Body: Input[template.CampaignSetupInput]("name"), BodyRequired: true,
		Response: Object(Req("created_resources", created), Req("campaign", Ref("Campaign")), Req("object", Const("campaign_setup"))),
		Errors:   []int{409}})
	a.Add("POST "+base+"/{campaignTemplateId}/tier-setup", Op{Summary: "Add a promotion tier from a template",
		Auth: ServerAPI, PathParams: id, Description: "A tier of a PROMOTION campaign with the template's discount.",
		Body: Input[template.TierSetupInput]("campaign_id", "name"), BodyRequired: true,
		Response: Object(Req("created_resources", created), Req("promotion_tier", Ref("PromotionTier")),
			Req("object", Const("promotion_tier_setup")))})

	mbase := "/management/v1/projects/{projectId}/templates/campaigns"
	a.Add("GET "+mbase, Op{Summary: "List a project's campaign templates", Auth: Management,
		PathParams: map[string]string{"projectId": "The project's ID."}, Query: listQuery, Response: list})
	a.Add("POST "+mbase+"/{campaignTemplateId}/copy", Op{Summary: "Copy a campaign template into another project",
		Auth: Management, PathParams: map[string]string{"projectId": "The project's ID.", "campaignTemplateId": "The template's ID."},
		Body: Input[template.CopyInput]("name", "destination_project_id"), BodyRequired: true,
		Response: tpl, Errors: []int{409}})
	a.Add("POST /management/v1/projects/users/invite", Op{Summary: "Invite a user", Auth: Management,
		Description: "Stores the invitation (no mail is sent; docs/management.md). 409 when the address is a user's already.",
		Body:        Input[access.InviteUserInput]("email", "first_name", "last_name", "projects"), BodyRequired: true,
		Status: http.StatusNoContent, Errors: []int{404, 409}})

	loc := a.Schema("Location", Object(
		Req("id", String()),
		Req("object", Const("location")),
		Req("name", String()),
		Req("shape", FreeObject().Desc("A circle {type, format: distance, distance: {center, radius}} or a polygon {type, format: geojson, geojson}.")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
	))
	a.Add("GET /v1/locations", Op{Summary: "List locations", Auth: ServerAPI,
		Query: []Param{LimitParam,
			Query("order", Enum("created_at", "-created_at", "updated_at", "-updated_at"), "Default -created_at."),
			{Name: "filters", Schema: FreeObject(), Style: "deepObject",
				Description: "Filters over name, created_at and updated_at."}},
		Response: V1List("data", loc, true).With(Req("has_more", Boolean()))})
	a.Add("GET /v1/locations/{locationId}", Op{Summary: "Get a location", Auth: ServerAPI,
		PathParams: map[string]string{"locationId": "The location's ID (loc_…)."}, Response: loc})

	a.Add("POST /v1/campaigns/{campaignId}/transactions/export", Op{Summary: "Export a campaign's transactions",
		Auth: ServerAPI, PathParams: map[string]string{"campaignId": "The campaign's ID or name."},
		Body:     Object(Opt("parameters", Input[exportpkg.ExportParametersInput]())),
		Response: Ref("Export")})
}

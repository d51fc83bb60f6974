package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
)

// campaigns documents /v1/campaigns (rest/campaigns.go,
// rest/campaign_lifecycle.go).
func campaigns(a *API) {
	a.Tag("Campaigns", "Campaigns of vouchers: loyalty programs, gift vouchers, discount coupons, promotions "+
		"and referral programs.")
	validity(a)
	a.Schema("ValidationRulesAssignment", Object(
		Req("id", String()),
		Req("rule_id", String()),
		Req("related_object_id", String()),
		Req("related_object_type", Enum("voucher", "campaign", "promotion_tier")),
		Req("created_at", DateTime()),
		Req("validation_status", Const("VALID")),
		Req("validation_omitted_rules", Array(String())),
		Req("object", Const("validation_rules_assignment")),
	))
	campaign := a.Schema("Campaign", Object(
		Req("id", String()),
		Req("name", String()),
		Req("description", String().Null()),
		Req("campaign_type", EnumOf(campaignTypes...)),
		Req("type", EnumOf(campaignKinds...)),
		Req("voucher", FromGo[jsonfield.VoucherProfile]().Null().Desc("The template of the campaign's vouchers.")),
		Req("auto_join", Boolean()),
		Req("join_once", Boolean()),
		Req("use_voucher_metadata_schema", Boolean()),
		Req("validity_timeframe", Ref("ValidityTimeframe").Null()),
		Req("validity_day_of_week", Array(Integer().Range(0, 6)).Null()),
		Req("validity_hours", Ref("ValidityHours").Null()),
		Req("activity_duration_after_publishing", String().Null().Desc("ISO 8601 duration.")),
		Req("vouchers_count", Integer()),
		Req("start_date", DateTime().Null()),
		Req("expiration_date", DateTime().Null()),
		Req("active", Boolean()),
		Req("metadata", Metadata()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("category", String().Null()),
		Req("creation_status", EnumOf(creationStatuses...)),
		Req("vouchers_generation_status", EnumOf(creationStatuses...)),
		Req("protected", Boolean()),
		Req("category_id", String().Null()),
		Req("categories", Array(Ref("Category")).Desc("The campaign's category; in lists only with expand=category.")),
		Opt("referral_program", FreeObject()),
		Opt("loyalty_tiers_expiration", FreeObject()),
		Opt("promotion", FreeObject()),
		Req("validation_rules_assignments", V1List("data", Ref("ValidationRulesAssignment"), true)),
		Req("object", Const("campaign")),
	))
	id := map[string]string{"campaignId": "The campaign's ID or name."}
	a.Add("POST /v1/campaigns", Op{Summary: "Create a campaign", Auth: ServerAPI,
		Body: Input[campaignpkg.CreateCampaignInput]("name"), BodyRequired: true, Response: campaign,
		Errors: []int{http.StatusConflict}})
	a.Add("GET /v1/campaigns", Op{Summary: "List campaigns", Auth: ServerAPI,
		Query: []Param{LimitParam, PageParam,
			Query("campaign_type", EnumOf(campaignTypes...), ""),
			Query("campaign_status", String(), "Campaign status filter."),
			Query("is_referral_code", Boolean(), ""),
			Query("expand", String(), "category: fill each campaign's categories (otherwise empty in lists)."),
			OrderParam("created_at", "updated_at")},
		Response: V1List("campaigns", campaign, true)})
	a.Add("GET /v1/campaigns/{campaignId}", Op{Summary: "Get a campaign", Auth: ServerAPI, PathParams: id,
		Response: campaign})
	a.Add("PUT /v1/campaigns/{campaignId}", Op{Summary: "Update a campaign", Auth: ServerAPI, PathParams: id,
		Body: Input[campaignpkg.UpdateCampaignInput](), Response: campaign})
	a.Add("DELETE /v1/campaigns/{campaignId}", Op{Summary: "Delete a campaign", Auth: ServerAPI, PathParams: id,
		Description: "Deletes the campaign and its vouchers in the background.",
		Query:       []Param{Query("force", Boolean(), "Delete permanently (true) rather than to the bin.")},
		Status:      http.StatusAccepted, Response: Ref("AsyncActionStarted")})
	a.Add("POST /v1/campaigns/{campaignId}/enable", Op{Summary: "Enable a campaign", Auth: ServerAPI,
		PathParams: id, Response: campaign})
	a.Add("POST /v1/campaigns/{campaignId}/disable", Op{Summary: "Disable a campaign", Auth: ServerAPI,
		PathParams: id, Response: campaign})
}

// validity adds the validity window shapes campaigns and vouchers share.
func validity(a *API) {
	a.Schema("ValidityTimeframe", notNull(FromGo[jsonfield.ValidityTimeframe]()).
		Desc("Repeating windows: duration and interval are ISO 8601 durations; needs start_date."))
	a.Schema("ValidityHours", notNull(FromGo[jsonfield.ValidityHours]()).
		Desc("Daily windows: times HH:MM, days_of_week 0 (Sunday) to 6."))
}

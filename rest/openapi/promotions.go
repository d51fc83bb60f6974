package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/promotion"
)

// promotions documents the tiers and stacks of PROMOTION campaigns
// (rest/promotions).
func promotions(a *API) {
	a.Tag("Promotions", "Promotion tiers and stacks of PROMOTION campaigns. A campaign in a path is its id or its name.")
	assignment := Object(
		Req("id", String().Desc("asgm_…")),
		Req("rule_id", String().Desc("val_…")),
		Req("related_object_id", String()),
		Req("related_object_type", Const("promotion_tier")),
		Req("created_at", DateTime()),
		Req("object", Const("validation_rules_assignment")),
	)
	tier := a.Schema("PromotionTier", Object(
		Req("id", String().Desc("promo_…")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime().Desc("Left out until the tier is first updated.")),
		Req("name", String()),
		Opt("banner", String().Desc("Left out when unset.")),
		Req("action", Object(Req("discount", FromGo[jsonfield.Discount]().Null()))),
		Req("metadata", Metadata()),
		Req("hierarchy", Integer()),
		Req("promotion_id", String().Desc("The campaign's id.")),
		Opt("campaign", Object(
			Req("id", String()),
			Req("start_date", DateTime().Null()),
			Req("expiration_date", DateTime().Null()),
			Opt("validity_timeframe", Ref("ValidityTimeframe")),
			Opt("validity_day_of_week", Array(Integer())),
			Opt("validity_hours", Ref("ValidityHours")),
			Req("active", Boolean()),
			Req("category_id", String().Null()),
			Req("object", Const("campaign")),
		)),
		Req("campaign_id", String()),
		Req("active", Boolean()),
		Opt("start_date", DateTime()),
		Opt("expiration_date", DateTime()),
		Opt("validity_timeframe", Ref("ValidityTimeframe")),
		Opt("validity_day_of_week", Array(Integer())),
		Opt("validity_hours", Ref("ValidityHours")),
		Req("summary", Object(
			Req("redemptions", Object(Req("total_redeemed", Integer()))),
			Req("orders", Object(Req("total_amount", Integer()), Req("total_discount_amount", Integer()))),
		)),
		Req("validation_rule_assignments", V1List("data", assignment, true).Null().Desc("Null when none.")),
		Req("category_id", String().Null()),
		Req("categories", Array(Ref("Category"))),
		Req("object", Const("promotion_tier")),
	))
	stack := a.Schema("PromotionStack", Object(
		Req("id", String().Desc("stack_…")),
		Req("name", String()),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime().Desc("Left out until the stack is first updated.")),
		Req("campaign_id", String()),
		Req("object", Const("promotion_stack")),
		Req("tiers", Object(Req("ids", Array(String())), Req("hierarchy_mode", Const("MANUAL")))),
		Req("category_id", String().Null()),
		Req("categories", Array(Ref("Category"))),
	))
	tierList := V1List("tiers", tier, true).With(Req("has_more", Boolean()))
	stackList := V1List("data", stack, true)
	tierID := map[string]string{"promotionTierId": "The tier's id (promo_…)."}
	campaignID := map[string]string{"campaignId": "The campaign's id or name."}
	stackID := map[string]string{"campaignId": "The campaign's id or name.", "stackId": "The stack's id (stack_…)."}
	tierBody := Input[campaign.PromotionTierInput]()
	stackBody := Input[promotion.StackInput]()
	dates := []Param{
		Query("created_at[before]", DateTime(), "Only stacks created before it."),
		Query("created_at[after]", DateTime(), "Only stacks created after it."),
		Query("updated_at[before]", DateTime(), "Only stacks updated before it."),
		Query("updated_at[after]", DateTime(), "Only stacks updated after it."),
	}

	a.Add("GET /v1/promotions/tiers", Op{Summary: "List promotion tiers", Auth: ServerAPI,
		Description: "Newest first by default.",
		Query: []Param{Query("is_available", Boolean(), "Only tiers that are active, begun and not expired, in an active campaign."),
			LimitParam, PageParam, OrderParam("created_at", "updated_at")},
		Response: tierList})
	a.Add("GET /client/v1/promotions/tiers", Op{Summary: "List promotion tiers from a web page", Auth: ClientAPI,
		Description: "The server list (GET /v1/promotions/tiers) with a client key and the client-side origin checks.",
		Query: []Param{Query("is_available", Boolean(), "Only tiers that are active, begun and not expired, in an active campaign."),
			LimitParam, PageParam, OrderParam("created_at", "updated_at")},
		Response: tierList})
	a.Add("GET /v1/promotions/{campaignId}/tiers", Op{Summary: "List promotion tiers from campaign", Auth: ServerAPI,
		Description: "By hierarchy; 100 a page unless limit says otherwise.", PathParams: campaignID,
		Query: []Param{Query("is_available", Boolean(), "Only available tiers."),
			Query("limit", Integer().Range(1, 100), "Items per page (1-100, default 100)."), PageParam,
			OrderParam("created_at", "updated_at")},
		Response: tierList})
	a.Add("POST /v1/promotions/{campaignId}/tiers", Op{Summary: "Add promotion tier to campaign", Auth: ServerAPI,
		Description: "Without a hierarchy the tier comes after the campaign's last one; validation_rules become assignments.",
		PathParams:  campaignID, Body: tierBody, BodyRequired: true, Response: tier})
	a.Add("GET /v1/promotions/tiers/{promotionTierId}", Op{Summary: "Get promotion tier", Auth: ServerAPI,
		PathParams: tierID, Response: tier})
	a.Add("PUT /v1/promotions/tiers/{promotionTierId}", Op{Summary: "Update promotion tier", Auth: ServerAPI,
		Description: "Changes the sent fields; active is changed by enable and disable.",
		PathParams:  tierID, Body: tierBody, BodyRequired: true, Response: tier})
	a.Add("DELETE /v1/promotions/tiers/{promotionTierId}", Op{Summary: "Delete promotion tier", Auth: ServerAPI,
		Description: "The tier leaves the stacks that list it (a stack left empty is deleted).",
		PathParams:  tierID, Status: http.StatusNoContent})
	a.Add("POST /v1/promotions/tiers/{promotionTierId}/enable", Op{Summary: "Enable promotion tier", Auth: ServerAPI,
		PathParams: tierID, Response: tier})
	a.Add("POST /v1/promotions/tiers/{promotionTierId}/disable", Op{Summary: "Disable promotion tier", Auth: ServerAPI,
		PathParams: tierID, Response: tier})
	a.Add("GET /v1/promotions/stacks", Op{Summary: "List all promotion stacks", Auth: ServerAPI,
		Query:    append([]Param{LimitParam, PageParam, OrderParam("created_at", "updated_at", "name")}, dates...),
		Response: stackList})
	a.Add("GET /v1/promotions/{campaignId}/stacks", Op{Summary: "List promotion stacks in campaign", Auth: ServerAPI,
		PathParams: campaignID, Response: stackList})
	a.Add("POST /v1/promotions/{campaignId}/stacks", Op{Summary: "Create promotion stack", Auth: ServerAPI,
		Description: "tiers.ids: 1 to 30 tiers of the campaign, in application order.",
		PathParams:  campaignID, Body: stackBody, BodyRequired: true, Response: stack})
	a.Add("GET /v1/promotions/{campaignId}/stacks/{stackId}", Op{Summary: "Get promotion stack", Auth: ServerAPI,
		PathParams: stackID, Response: stack})
	a.Add("PUT /v1/promotions/{campaignId}/stacks/{stackId}", Op{Summary: "Update promotion stack", Auth: ServerAPI,
		PathParams: stackID, Body: stackBody, BodyRequired: true, Response: stack})
	a.Add("DELETE /v1/promotions/{campaignId}/stacks/{stackId}", Op{Summary: "Delete promotion stack", Auth: ServerAPI,
		PathParams: stackID, Status: http.StatusNoContent})

	// The deprecated endpoints (rest/promotion_legacy.go).
	legacyEntry := Object(
		Req("valid", Boolean()),
		Req("applicable_to", FreeObject()),
		Req("inapplicable_to", FreeObject()),
		Req("tracking_id", String().Null()),
		Req("order", Ref("Order")),
		Req("id", String()),
		Req("name", String()),
		Opt("banner", String()),
		Req("discount", FreeObject()),
		Req("campaign", Object(Req("id", String()), Req("start_date", DateTime().Null()),
			Req("expiration_date", DateTime().Null()), Req("active", Boolean()), Req("object", Const("campaign")))),
		Req("hierarchy", Integer()),
		Opt("discount_amount", Integer()),
		Opt("applied_discount_amount", Integer()),
		Req("metadata", Metadata()),
		Opt("start_date", DateTime()),
		Opt("expiration_date", DateTime()),
		Req("object", Const("promotion_tier")),
	)
	a.Add("POST /v1/promotions/validation", Op{Summary: "Validate promotions (legacy)", Auth: ServerAPI,
		Description: "Of the 150 newest available tiers, those that apply to the order, by hierarchy; each is " +
			"computed on the order alone. valid: at least one applies. audienceRulesOnly and filters are not supported.",
		Body:     Ref("VoucherRedemptionRequest"),
		Response: Object(Req("valid", Boolean()), Opt("tracking_id", String().Null()), Req("promotions", Array(legacyEntry)))})
	a.Add("POST /v1/promotions/tiers/{promotionTierId}/validation", Op{Summary: "Validate a promotion tier (legacy)",
		Auth: ServerAPI, PathParams: tierID,
		Description: "The tier checked and computed on the order alone (rules, applicable_to, item effects); nothing is written. " +
			"Not usable: valid false with reason and the error object (a rule's custom text as error.message). Unknown tier: 404.",
		Body: Ref("VoucherRedemptionRequest"),
		Response: legacyEntry.With(Opt("applicable_to", FreeObject()), Opt("inapplicable_to", FreeObject()),
			Opt("id", String()), Opt("object", Const("promotion_tier")), Opt("metadata", Metadata()),
			Opt("order", Ref("Order")), Opt("name", String()), Opt("discount", FreeObject()),
			Opt("campaign", legacyEntry.Properties["campaign"]), Opt("hierarchy", Integer()),
			Opt("reason", String()), Opt("error", Object(Req("code", Integer()), Req("key", String()), Req("message", String()),
				Opt("details", String()), Opt("request_id", String().Null()))))})
	a.Add("POST /v1/promotions/tiers/{promotionTierId}/redemption", Op{Summary: "Redeem a promotion tier (legacy)",
		Auth: ServerAPI, PathParams: tierID,
		Description: "One redemption of the tier: 200 with the redemption, or 400 with the failure (stored as rf_…).",
		Body:        Ref("VoucherRedemptionRequest"), Response: Ref("Redemption")})
}

package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/loyaltyv1"
)

// loyaltyV1EarningRules documents /v1/loyalties/{campaignId}/earning-rules
// (rest/loyalty_v1_earning_rules.go).
func loyaltyV1EarningRules(a *API) {
	rule := a.Schema("LoyaltyV1EarningRule", Object(
		Req("id", String()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("validation_rule_id", String().Null()),
		Req("loyalty", FreeObject().Desc("{type: FIXED, points} or {type: PROPORTIONAL, calculation_type, …}.")),
		Req("event", String()),
		Opt("custom_event", FreeObject()),
		Opt("segment", FreeObject()),
		Opt("loyalty_tier", FreeObject()),
		Opt("pending_points", FreeObject()),
		Opt("expiration_rules", FreeObject()),
		Req("source", FreeObject().Desc("{banner?, object_id: the campaign, object_type: campaign}.")),
		Req("active", Boolean()),
		Opt("start_date", DateTime()),
		Opt("expiration_date", DateTime()),
		Opt("validity_timeframe", FreeObject()),
		Opt("validity_day_of_week", Array(Integer().Range(0, 6))),
		Opt("validity_hours", FreeObject()),
		Req("metadata", Metadata()),
		Req("automation_id", String()),
		Req("object", Const("earning_rule")),
	))
	program := map[string]string{"campaignId": "The program's (campaign's) ID or name."}
	one := map[string]string{"campaignId": program["campaignId"], "earningRuleId": "The earning rule's ID (ern_…)."}
	a.Add("POST /v1/loyalties/{campaignId}/earning-rules", Op{Summary: "v1: Create earning rules", Auth: ServerAPI,
		PathParams: program, Body: Array(Input[loyaltyv1.EarningRuleInput]("event", "loyalty")), BodyRequired: true,
		Response: Array(rule)})
	a.Add("GET /v1/loyalties/{campaignId}/earning-rules", Op{Summary: "v1: List earning rules", Auth: ServerAPI,
		PathParams: program, Query: []Param{LimitParam, PageParam, OrderParam("created_at", "updated_at")},
		Response: V1List("data", rule, true)})
	a.Add("GET /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}", Op{Summary: "v1: Get an earning rule",
		Auth: ServerAPI, PathParams: one, Response: rule})
	a.Add("PUT /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}", Op{Summary: "v1: Update an earning rule",
		Auth: ServerAPI, PathParams: one, Description: "event, custom_event, segment and loyalty_tier cannot change.",
		Body: Input[loyaltyv1.EarningRuleInput](), Response: rule})
	a.Add("DELETE /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}", Op{Summary: "v1: Delete an earning rule",
		Auth: ServerAPI, PathParams: one, Status: http.StatusNoContent})
	a.Add("POST /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/enable", Op{Summary: "v1: Enable an earning rule",
		Auth: ServerAPI, PathParams: one, Response: rule})
	a.Add("POST /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/disable", Op{Summary: "v1: Disable an earning rule",
		Auth: ServerAPI, PathParams: one, Response: rule})
}

package openapi

import (
	"net/http"

	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
)

// loyaltyV1Points documents the points-bucket routes of /v1/loyalties
// (rest/loyalty_v1_points.go): pending points, points expiration, the
// program exports, a tier's rewards and the points estimate.
func loyaltyV1Points(a *API) {
	pending := a.Schema("LoyaltyV1PendingPoints", Object(
		Req("id", String().Desc("lopp_…")),
		Req("voucher_id", String().Null()),
		Req("campaign_id", String().Null()),
		Req("customer_id", String().Null()),
		Req("order_id", String().Null()),
		Req("points", Integer()),
		Opt("activates_at", Date()),
		Req("details", FreeObject().Desc("The event, earning rule and order that earned the points.")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime()),
		Req("object", Const("pending_points")),
	))
	bucket := a.Schema("LoyaltyV1PointsBucket", Object(
		Req("id", String().Desc("lopb_…")),
		Req("voucher_id", String().Null()),
		Req("campaign_id", String().Null()),
		Req("bucket", Object(Req("total_points", Integer()))),
		Req("status", Enum("ACTIVE", "EXPIRED")),
		Opt("expires_at", Date().Desc("The last day the points can be used; left out when they never expire.")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime()),
		Req("object", Const("loyalty_points_bucket")),
	))
	pendingPage := Object(
		Req("object", Const("list")),
		Req("data_ref", Const("data")),
		Req("data", Array(pending)),
		Req("has_more", Boolean()),
		Opt("more_starting_after", String()),
	)
	pendingQuery := []Param{LimitParam, OrderParam("id"),
		Query("starting_after_id", String(), "Continue after this entry (more_starting_after).")}
	program := map[string]string{"campaignId": "The program's (campaign's) ID or name."}
	member := map[string]string{"memberId": "The card's code."}
	both := map[string]string{"campaignId": program["campaignId"], "memberId": member["memberId"]}
	entry := map[string]string{"memberId": member["memberId"], "pendingPointsId": "The pending-points entry (lopp_…)."}
	exportBody := Object(Opt("parameters", Input[exportpkg.ExportParametersInput]()))

	a.Add("GET /v1/loyalties/{campaignId}/pending-points", Op{Summary: "v1: List a program's pending points", Auth: ServerAPI,
		PathParams: program, Query: pendingQuery, Response: pendingPage})
	a.Add("GET /v1/loyalties/{campaignId}/members/{memberId}/pending-points", Op{Summary: "v1: List a member's pending points in a program",
		Auth: ServerAPI, PathParams: both, Query: pendingQuery, Response: pendingPage})
	a.Add("GET /v1/loyalties/members/{memberId}/pending-points", Op{Summary: "v1: List a member's pending points", Auth: ServerAPI,
		PathParams: member, Query: pendingQuery, Response: pendingPage})
	a.Add("POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate", Op{Summary: "v1: Activate pending points",
		Auth: ServerAPI, PathParams: entry,
		Description: "Moves the entry's points into the balance now; an entry no longer PENDING is 400 invalid_pending_points_state.",
		Response: Object(Req("points", Integer()), Req("total", Integer()), Req("balance", Integer()), Req("type", Const("loyalty_card")),
			Req("object", Const("balance")), Req("related_object", Object(Req("type", Const("voucher")), Req("id", String()))),
			Req("operation_type", Enum("MANUAL", "AUTOMATIC")))})
	a.Add("POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/balance", Op{Summary: "v1: Change pending points",
		Auth: ServerAPI, PathParams: entry, Body: Input[loyaltyv1.PendingBalanceInput]("points"), BodyRequired: true,
		Description: "Adds (positive) or subtracts (negative); an entry that would reach 0 or less is 400 invalid_amount.",
		Response: Object(Req("points", Integer()), Req("total", Integer()), Req("object", Const("balance")),
			Req("related_object", Object(Req("type", Const("voucher")), Req("id", String()))), Req("operation_type", Const("MANUAL")))})
	a.Add("POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/cancel", Op{Summary: "v1: Cancel pending points",
		Auth: ServerAPI, PathParams: entry, Status: http.StatusNoContent})
	a.Add("GET /v1/loyalties/{campaignId}/members/{memberId}/points-expiration", Op{Summary: "v1: List a member's points expiration",
		Auth: ServerAPI, PathParams: both, Query: []Param{LimitParam, PageParam},
		Description: "The card's ACTIVE buckets, soonest expiry first (never-expiring last); expired buckets are not listed.",
		Response:    V1List("data", bucket, true)})
	a.Add("POST /v1/loyalties/{campaignId}/points-expiration/export", Op{Summary: "v1: Export a program's points expiration",
		Auth: ServerAPI, PathParams: program, Body: exportBody, Response: Ref("Export"),
		Description: "A CSV of the program's dated buckets, ACTIVE and EXPIRED; order expires_at or -expires_at; fields id, campaign_id, voucher_id, points, status, expires_at."})
	a.Add("POST /v1/loyalties/{campaignId}/transactions/export", Op{Summary: "v1: Export a program's transactions",
		Auth: ServerAPI, PathParams: program, Body: exportBody, Response: Ref("Export")})
	a.Add("GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards", Op{Summary: "v1: List a tier's rewards", Auth: ServerAPI,
		PathParams:  map[string]string{"campaignId": program["campaignId"], "loyaltyTierId": "The tier's ID (ltr_…)."},
		Description: "The program's reward assignments the tier maps, each with its reward.",
		Response: V1List("data", Object(Req("reward", Ref("V1Reward")), Req("assignment", Ref("V1RewardAssignment")),
			Req("object", Const("loyalty_tier_reward"))), true)})
	a.Add("POST /v1/loyalties/{campaignId}/qualifications", Op{Summary: "v1: Estimate a member's points for an order",
		Auth: ServerAPI, PathParams: program, Body: Input[loyaltyv1.EstimateInput](), BodyRequired: true,
		Description: "What the program's active order.paid rules would award; nothing is written.",
		Response: Object(Req("campaign", Object(Req("id", String()), Req("name", String()), Req("object", Const("campaign")))),
			Req("points_estimation", Integer()))})
}

package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/reward"
)

// rewards documents the v1 rewards: /v1/rewards with their assignments
// and the loyalty side (rest/rewards.go, rest/loyalty_rewards.go).
func rewards(a *API) {
	a.Tag("Rewards", "v1 rewards (CAMPAIGN, COIN, MATERIAL), their assignments to loyalty and referral campaigns with a "+
		"price in points, and redeeming them with a loyalty card's points. The v2 area's rewards (/v2/loyalties/rewards) are other objects.")
	rewardObj := a.Schema("V1Reward", Object(
		Req("id", String().Desc("rew_…")),
		Req("name", String()),
		Req("type", Enum(reward.TypeCampaign, reward.TypeCoin, reward.TypeMaterial)),
		Req("parameters", FreeObject().Desc("{campaign:{id, balance?, type}}, {coin:{exchange_ratio, points_ratio}} or {product:{id, sku_id}}.")),
		Req("stock", Integer().Null().Desc("MATERIAL: the units it may give; null: unlimited.")),
		Req("redeemed", Integer().Null().Desc("MATERIAL: the units given; null for other types.")),
		Req("attributes", FreeObject().Desc("image_url, description.")),
		Req("metadata", Metadata().Null()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("reward")),
	))
	assignment := a.Schema("V1RewardAssignment", Object(
		Req("id", String().Desc("rewa_…")),
		Req("reward_id", String()),
		Req("related_object_id", String().Desc("The campaign.")),
		Req("related_object_type", Const("campaign")),
		Opt("parameters", Object(Req("loyalty", Object(Req("points", Integer()), Req("auto_redeem", Boolean())))).
			Desc("Absent for COIN rewards.")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("reward_assignment")),
	))
	rewardID := map[string]string{"rewardId": "The reward's ID (rew_…)."}
	assignmentID := map[string]string{"rewardId": "The reward's ID (rew_…).", "assignmentId": "The assignment's ID (rewa_…)."}
	page := []Param{LimitParam, Query("page", Integer().Range(1, 99), "Page number (1-99, default 1).")}
	rewardBody := Input[reward.RewardInput]()
	assignmentBody := Input[reward.AssignmentInput]()

	a.Add("GET /v1/rewards", Op{Summary: "List v1 rewards", Auth: ServerAPI, Description: "Newest first.",
		Query:    append(page, Query("assignment_id", String(), "Only the reward of this assignment.")),
		Response: V1List("data", rewardObj, true)})
	a.Add("POST /v1/rewards", Op{Summary: "Create v1 reward", Auth: ServerAPI, Body: rewardBody,
		Description: "type is derived from parameters (exactly one of campaign, coin, product) and must match when sent. " +
			"The campaign (DISCOUNT_COUPONS, GIFT_VOUCHERS with a balance in cents, LOYALTY_PROGRAM with a balance in points) " +
			"or product must exist; stock (MATERIAL) is 0 or more.",
		Response: rewardObj})
	a.Add("GET /v1/rewards/{rewardId}", Op{Summary: "Get v1 reward", Auth: ServerAPI, PathParams: rewardID, Response: rewardObj})
	a.Add("PUT /v1/rewards/{rewardId}", Op{Summary: "Update v1 reward", Auth: ServerAPI, PathParams: rewardID, Body: rewardBody,
		Description: "The sent fields change; the type cannot.", Response: rewardObj})
	a.Add("DELETE /v1/rewards/{rewardId}", Op{Summary: "Delete v1 reward", Auth: ServerAPI, PathParams: rewardID,
		Description: "A reward that is still assigned is 400 resource_in_use.", Status: http.StatusNoContent})
	a.Add("GET /v1/rewards/{rewardId}/assignments", Op{Summary: "List reward assignments", Auth: ServerAPI,
		PathParams: rewardID, Query: page, Response: V1List("data", assignment, true)})
	a.Add("POST /v1/rewards/{rewardId}/assignments", Op{Summary: "Create reward assignment", Auth: ServerAPI,
		PathParams: rewardID, Body: assignmentBody,
		Description: "campaign: a loyalty or referral campaign (id or name). parameters.loyalty.points (1 or more) is " +
			"required except for COIN rewards, which take none and at most one validation rule. One per reward and campaign (409).",
		Response: assignment, Errors: []int{http.StatusConflict}})
	a.Add("GET /v1/rewards/{rewardId}/assignments/{assignmentId}", Op{Summary: "Get reward assignment", Auth: ServerAPI,
		PathParams: assignmentID, Response: assignment})
	a.Add("PUT /v1/rewards/{rewardId}/assignments/{assignmentId}", Op{Summary: "Update reward assignment", Auth: ServerAPI,
		PathParams: assignmentID, Body: assignmentBody, Response: assignment})
	a.Add("DELETE /v1/rewards/{rewardId}/assignments/{assignmentId}", Op{Summary: "Delete reward assignment", Auth: ServerAPI,
		PathParams: assignmentID, Status: http.StatusNoContent})

	loyaltyRewards(a, rewardObj, assignment, page, assignmentBody)
}

// loyaltyRewards documents the loyalty side of v1 reward assignments and
// redeeming a reward.
func loyaltyRewards(a *API, rewardObj, assignment *Schema, page []Param, assignmentBody *Schema) {
	cmp := map[string]string{"campaignId": "The loyalty campaign's ID or name."}
	cmpAssignment := map[string]string{"campaignId": "The loyalty campaign's ID or name.", "assignmentId": "The assignment's ID (rewa_…)."}
	a.Add("GET /v1/loyalties/{campaignId}/rewards", Op{Summary: "List loyalty reward assignments", Auth: ServerAPI,
		PathParams: cmp, Query: append(page, Query("assignment_id", String(), "Only this assignment.")),
		Response: V1List("data", assignment, true)})
	a.Add("POST /v1/loyalties/{campaignId}/rewards", Op{Summary: "Create loyalty reward assignments", Auth: ServerAPI,
		PathParams: cmp, Body: Array(assignmentBody).Desc("[{reward, parameters:{loyalty:{points}}}] (COIN: [{reward, validation_rules?}])."),
		Description: "All or none.", Response: Array(assignment), Errors: []int{http.StatusConflict}})
	a.Add("GET /v1/loyalties/{campaignId}/rewards/{assignmentId}", Op{Summary: "Get loyalty reward assignment", Auth: ServerAPI,
		PathParams: cmpAssignment, Response: assignment})
	a.Add("PUT /v1/loyalties/{campaignId}/rewards/{assignmentId}", Op{Summary: "Update loyalty reward assignment", Auth: ServerAPI,
		PathParams: cmpAssignment, Body: assignmentBody, Response: assignment})
	a.Add("DELETE /v1/loyalties/{campaignId}/rewards/{assignmentId}", Op{Summary: "Delete loyalty reward assignment", Auth: ServerAPI,
		PathParams: cmpAssignment, Status: http.StatusNoContent})
	a.Add("GET /v1/loyalties/{campaignId}/reward-assignments", Op{Summary: "List loyalty campaign reward assignments", Auth: ServerAPI,
		PathParams: cmp, Query: append(page, Query("assignmentId", String(), "Only this assignment.")),
		Response: V1List("data", assignment, true)})
	a.Add("GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}", Op{Summary: "Get loyalty campaign reward assignment",
		Auth: ServerAPI, PathParams: cmpAssignment, Response: assignment})
	a.Add("GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward", Op{Summary: "Get loyalty reward details",
		Auth: ServerAPI, PathParams: cmpAssignment, Response: rewardObj})
	memberReward := Object(Req("reward", rewardObj), Req("assignment", assignment), Req("object", Const("loyalty_reward")))
	a.Add("GET /v1/loyalties/members/{memberId}/rewards", Op{Summary: "List member rewards", Auth: ServerAPI,
		PathParams:  map[string]string{"memberId": "The loyalty card's code."},
		Description: "The rewards assigned to the card's campaign (the newest 100).",
		Query:       []Param{Query("affordable_only", Boolean(), "Only rewards whose points the balance covers (COIN rewards always).")},
		Response:    V1List("data", memberReward, true)})
	redeemBody := Input[reward.MemberRedemptionInput]()
	redeemDesc := "Redeems the card for the reward (assigned to its campaign): the assignment's points leave the balance " +
		"(one POINTS_REDEMPTION transaction) and the reward is issued to the card's holder — a coupon published from a " +
		"DISCOUNT_COUPONS campaign, credits on their gift card, points on their card of another loyalty campaign, or a unit " +
		"of a MATERIAL reward's stock. Not enough points is 400 loyalty_card_points_exceeded, no stock 400 reward_out_of_stock; " +
		"a refusal writes nothing. Rolling the redemption back returns the points (and the unit of stock)."
	a.Add("POST /v1/loyalties/{campaignId}/members/{memberId}/redemption", Op{Summary: "Redeem reward", Auth: ServerAPI,
		PathParams: map[string]string{"campaignId": "The loyalty campaign's ID or name.", "memberId": "The loyalty card's code."},
		Body:       redeemBody, Description: redeemDesc, Response: Ref("Redemption")})
	a.Add("POST /v1/loyalties/members/{memberId}/redemption", Op{Summary: "Redeem reward (member)", Auth: ServerAPI,
		PathParams: map[string]string{"memberId": "The loyalty card's code."},
		Body:       redeemBody, Description: redeemDesc, Response: Ref("Redemption")})
}

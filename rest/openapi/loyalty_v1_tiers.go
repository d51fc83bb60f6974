package openapi

import "github.com/promoengine/promoengine/graph/loyaltyv1"

// loyaltyV1Tiers documents /v1/loyalties/{campaignId}/tiers… and the
// member's tiers (rest/loyalty_v1_tiers.go).
func loyaltyV1Tiers(a *API) {
	points := Object(Req("from", Integer().Null()), Req("to", Integer().Null()))
	fields := []Prop{
		Req("id", String()),
		Req("name", String()),
		Req("campaign_id", String()),
		Req("metadata", FreeObject().Null()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("earning_rules", FreeObject().Desc("ern_… → {type: MULTIPLY, multiplier} or {type: CUSTOM, points}.")),
		Req("rewards", FreeObject()),
		Req("config", Object(Req("points", points))),
		Req("points", points),
		Req("object", Const("loyalty_tier")),
	}
	tier := a.Schema("LoyaltyV1Tier", Object(fields...))
	memberTier := a.Schema("LoyaltyV1MemberTier", Object(append(fields[:len(fields):len(fields)],
		Opt("expiration", Object(
			Req("customer_id", String()),
			Req("campaign_id", String()),
			Req("tier_id", String()),
			Opt("start_date", Date().Desc("The first day the tier is held (UTC).")),
			Opt("expiration_date", Date().Desc("The last day the tier is held (UTC); absent while what qualifies for it lasts.")),
			Req("created_at", DateTime().Desc("When the card entered the tier.")),
			Opt("updated_at", DateTime().Desc("The tier's latest prolongation.")),
		).Desc("When the member's tier started and ends (loyalties.json LoyaltyTierExpiration).")))...))
	program := map[string]string{"campaignId": "The program's (campaign's) ID or name."}
	one := map[string]string{"campaignId": program["campaignId"], "loyaltyTierId": "The tier's ID (ltr_…)."}
	a.Add("POST /v1/loyalties/{campaignId}/tiers", Op{Summary: "v1: Create loyalty tiers", Auth: ServerAPI, PathParams: program,
		Description: "All or none; a points range overlapping another tier of the program is refused (400).",
		Body:        Array(Input[loyaltyv1.TierInput]("name")), BodyRequired: true, Response: Array(tier)})
	a.Add("GET /v1/loyalties/{campaignId}/tiers", Op{Summary: "v1: List loyalty tiers", Auth: ServerAPI, PathParams: program,
		Query: []Param{LimitParam, OrderParam("created_at", "updated_at")}, Response: V1List("data", tier, true)})
	a.Add("GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}", Op{Summary: "v1: Get a loyalty tier", Auth: ServerAPI,
		PathParams: one, Response: tier})
	a.Add("GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules", Op{Summary: "v1: List a tier's earning rules",
		Auth: ServerAPI, PathParams: one, Description: "The program's earning rules with the tier's mapping applied to FIXED points.",
		Query: []Param{LimitParam, PageParam}, Response: V1List("data", Ref("LoyaltyV1EarningRule"), true)})
	a.Add("GET /v1/loyalties/members/{memberId}/tiers", Op{Summary: "v1: List a member's tiers", Auth: ServerAPI,
		PathParams:  map[string]string{"memberId": "The card's code."},
		Description: "The tier whose range holds the card's qualifying points (the balance, or the points earned in the program's qualification periods that still count; none when no range does), with its expiration.",
		Response:    V1List("data", memberTier, true)})
}

package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty/examine"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// loyaltyTierStructures documents /v2/loyalties/tier-structures and tiers.
func loyaltyTierStructures(a *API, activities func(path, param, kind, stem string)) {
	structure := a.Schema("TierStructure", Object(
		Req("id", String().Desc("lts_ and hex digits.")),
		Req("name", String().Length(1, 200)),
		Req("type", Enum("POINT_BALANCE", "POINT_EARNED")),
		Req("card_definition_id", String()),
		Req("point_earned", FreeObject().Null().Desc("POINT_EARNED: {type: IMMEDIATELY|NEXT_TRACKING_PERIOD, period: {value, unit}}.")),
		Req("expiration", FreeObject().Null()),
		Req("downgrade", FreeObject().Null()),
		Req("metadata", Metadata()),
		Req("status", Enum("DRAFT", "ACTIVE", "INACTIVE", "DELETED")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("tier_structure")),
	))
	tier := a.Schema("TierStructureTier", Object(
		Req("id", String().Desc("lt_ and hex digits.")),
		Req("tier_structure_id", String()),
		Req("name", String()),
		Req("qualification_rules", Object(
			Req("type", Enum("POINTS", "SEGMENT")),
			Req("min_value", Integer().Null()),
			Req("max_value", Integer().Null().Desc("Null: open above.")),
			Req("segment", FromGo[*jsonfield.IDRef]()),
		)),
		Req("downgrade", Object(Req("type", Enum("INHERIT", "NO_DOWNGRADE")))),
		Req("metadata", Metadata()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("tier")),
	))
	ts := map[string]string{"tierStructureId": "The tier structure's ID."}
	tiers := map[string]string{"tierStructureId": "The tier structure's ID.", "tierId": "The tier's ID."}
	item := "/v2/loyalties/tier-structures/{tierStructureId}"
	a.Add("POST /v2/loyalties/tier-structures", Op{Summary: "Create a tier structure", Auth: Loyalty,
		Body: Input[loyaltybase.CreateTierStructureInput]("name", "type", "card_definition_id"), BodyRequired: true,
		Response: structure})
	a.Add("GET /v2/loyalties/tier-structures", Op{Summary: "List tier structures", Auth: Loyalty, Query: v2ListQuery,
		Response: V2List(structure)})
	a.Add("GET "+item, Op{Summary: "Get a tier structure", Auth: Loyalty, PathParams: ts, Response: structure})
	a.Add("PUT "+item, Op{Summary: "Update a tier structure", Auth: Loyalty, PathParams: ts,
		Body: Input[loyaltybase.UpdateTierStructureInput](), Response: structure})
	a.Add("DELETE "+item, Op{Summary: "Delete a tier structure", Auth: Loyalty, PathParams: ts, Response: structure,
		Errors: []int{http.StatusConflict}})
	for _, move := range []string{"activate", "deactivate", "draft"} {
		a.Add("POST "+item+"/"+move, Op{Summary: moveSummary[move] + " a tier structure", Auth: Loyalty, PathParams: ts,
			Response: structure, Errors: []int{http.StatusConflict}})
	}
	activities(item, "tierStructureId", "tier_structure", "tier_structure")
	body := Input[loyaltybase.TierInput]()
	a.Add("POST "+item+"/tiers", Op{Summary: "Create a tier", Auth: Loyalty, PathParams: ts,
		Description: "qualification_rules POINTS ranges of one structure never overlap (400).",
		Body:        Input[loyaltybase.TierInput]("name", "qualification_rules"), BodyRequired: true, Response: tier})
	a.Add("GET "+item+"/tiers", Op{Summary: "List tiers", Auth: Loyalty, PathParams: ts, Query: v2ListQuery,
		Response: V2List(tier)})
	a.Add("PUT "+item+"/tiers/{tierId}", Op{Summary: "Update a tier", Auth: Loyalty, PathParams: tiers, Body: body,
		Response: tier})
	a.Add("DELETE "+item+"/tiers/{tierId}", Op{Summary: "Delete a tier", Auth: Loyalty, PathParams: tiers, Response: tier})
}

// loyaltyProgramAssignments documents a program's sub-resources, batches
// and memberships.
func loyaltyProgramAssignments(a *API) {
	pid := map[string]string{"programId": "The program's ID."}
	program := "/v2/loyalties/programs/{programId}"
	batch := Input[loyaltybase.AssignmentBatchInput]()
	batchOf := func(kind string) *Schema {
		item := Object(Req(kind+"_id", String()), Req("object", Const("program_"+kind)))
		return Object(Req("assigned", Array(item).Null()), Req("unassigned", Array(item).Null()))
	}
	// The lists answer assignment objects (the resource's created_at: the
	// time of an assignment is not stored).
	for _, k := range []struct {
		path, kind, noun string
		extra            []Prop
	}{
		{"card-definitions", "card_definition", "card definitions", []Prop{Req("card_type", String())}},
		{"earning-rules", "earning_rule", "earning rules", nil},
		{"tier-structures", "tier_structure", "tier structures", nil},
	} {
		props := append(k.extra, Req(k.kind+"_id", String()), Req("created_at", DateTime()), Req("object", Const("program_"+k.kind)))
		a.Add("GET "+program+"/"+k.path, Op{Summary: "List a program's " + k.noun, Auth: Loyalty, PathParams: pid,
			Query: v2ListQuery, Response: V2List(Object(props...))})
		a.Add("POST "+program+"/"+k.path+"/batch", Op{Summary: "Assign and unassign a program's " + k.noun,
			Description: "All or nothing; at most 10 items per side.", Auth: Loyalty, PathParams: pid, Body: batch,
			BodyRequired: true, Response: batchOf(k.kind), Errors: []int{http.StatusConflict}})
	}
	programReward := a.Schema("ProgramReward", Object(
		Req("reward_id", String()),
		Req("costs", Array(FreeObject()).Null()),
		Req("stock", Integer()),
		Req("redeemed", Integer()),
		Req("created_at", DateTime()),
		Req("object", Const("program_reward")),
	))
	a.Add("GET "+program+"/rewards", Op{Summary: "List a program's rewards", Auth: Loyalty, PathParams: pid,
		Query: v2ListQuery, Response: V2List(programReward)})
	a.Add("POST "+program+"/rewards/batch", Op{Summary: "Assign and unassign a program's rewards",
		Description: "All or nothing; at most 10 items per side.", Auth: Loyalty, PathParams: pid,
		Body: Input[loyaltybase.ProgramRewardsBatchInput](), BodyRequired: true,
		Response: Object(Req("assigned", Array(programReward).Null()), Req("unassigned", Array(programReward).Null())),
		Errors:   []int{http.StatusConflict}})
	a.Add("PUT "+program+"/rewards/{rewardId}", Op{Summary: "Update a program's reward", Auth: Loyalty,
		PathParams: map[string]string{"programId": "The program's ID.", "rewardId": "The reward's ID."},
		Body:       Input[loyaltybase.ProgramRewardInput](), Response: programReward})
	tierRef := Object(Req("id", String()), Req("name", String())).Null()
	tierProgress := Object(
		Req("current", Object(
			Req("tier", tierRef),
			Req("start_at", DateTime().Null().Desc("When the member entered the tier (its tier transaction).")),
			Req("expires_at", DateTime().Null().Desc("By the structure's expiration: ROLLING_EXPIRATION/FIXED_DURATION, CALENDAR_EXPIRATION, SLIDING_EXPIRATION.")),
			Req("points", Object(Req("current", Integer()), Req("min", Integer()), Opt("max", Integer())).Null().
				Desc("null for a SEGMENT tier (no points range).")),
		).Null()),
		Req("tier_structure", Object(Req("id", String()), Req("object", Const("tier_structure"))).Null()),
		Req("deferred", Array(FreeObject()).Desc("Always empty: tier changes take effect at once.")),
		Req("risks", Array(Object(Req("type", EnumOf("TIER_DOWNGRADE", "TIER_LEFT")), Req("date", DateTime().Null()), Req("tier", tierRef)))),
		Req("opportunities", Array(Object(Req("valid_until", DateTime().Null()), Req("tier", tierRef), Req("points", Integer())))),
		Req("object", Const("member_tier_progress")),
	).Desc("The member's progress in the first ACTIVE tier structure over the card's definition (current and tier_structure null when none).")
	programSimple := Object(Req("id", String()), Req("name", String()), Req("status", String()), Req("metadata", Metadata()),
		Req("object", Const("program")))
	membershipOf := func(card *Schema) *Schema {
		return Object(
			Req("member", Ref("LoyaltyMember")),
			Req("program", programSimple),
			Req("cards", Array(card)),
			Req("object", Const("membership")),
		)
	}
	membership := a.Schema("Membership", membershipOf(a.schemas["MemberCard"].With(Req("tier_progress", tierProgress))))
	a.Add("GET /v2/loyalties/memberships/{customerId}", Op{Summary: "List a customer's memberships", Auth: Loyalty,
		PathParams: map[string]string{"customerId": "The customer's ID."},
		Response: Object(
			Req("customer", Object(Req("id", String()), Req("source_id", String().Null()), Req("object", Const("customer")))),
			Req("memberships", Array(membershipOf(Ref("MemberCard")))),
			Req("object", Const("memberships_result")),
		)})
	a.Add("GET "+program+"/memberships/{customerId}", Op{Summary: "Get a customer's membership of a program",
		Auth: Loyalty, PathParams: map[string]string{"programId": "The program's ID.", "customerId": "The customer's ID."},
		Response: membership})
}

// loyaltySpending documents reward purchases, refunds and tier transactions.
func loyaltySpending(a *API) {
	mid := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID."}
	member := "/v2/loyalties/programs/{programId}/members/{memberId}"
	result := Object(
		Req("status", Enum("TRANSACTION_CREATED", "NO_SPENT_ON_REWARD")),
		Req("message", String()),
		Req("transaction", Ref("CardTransaction").Null()),
	)
	a.Add("POST "+member+"/rewards/purchases", Op{Summary: "Purchase a reward with points", Auth: Loyalty,
		Description: "Processed before the answer: the card is debited exactly once, never below zero; 423 when the program, member or reward is not active, the stock is out or the points do not cover the cost.",
		PathParams:  mid, Body: Input[loyaltybase.PurchaseRewardInput]("reward_id"), BodyRequired: true,
		Status: http.StatusAccepted, Response: result, Errors: []int{http.StatusLocked}})
	rewardTransaction := Object(
		Req("id", String()),
		Req("card_id", String()),
		Req("card_transaction_id", String()),
		Req("program_id", String()),
		Req("member_id", String()),
		Req("reward_id", String()),
		Req("status", Enum("PENDING", "APPROVED", "REJECTED", "REFUNDED")),
		Req("type", Enum("PURCHASE", "REFUND")),
		Req("details", FreeObject()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("reward_transaction")),
	)
	a.Add("GET "+member+"/rewards/purchases", Op{Summary: "List a member's reward purchases", Auth: Loyalty,
		PathParams: mid, Query: v2ListQuery, Response: V2List(rewardTransaction)})
	a.Add("POST /v2/loyalties/programs/{programId}/rewards/purchases/{rewardTransactionId}/refund", Op{
		Summary: "Refund a reward purchase", Auth: Loyalty,
		PathParams:  map[string]string{"programId": "The program's ID.", "rewardTransactionId": "The purchase's ID."},
		Description: "Processed before the answer: the points are back on the card and the unit in stock when it returns.",
		Body:        Input[loyaltybase.RefundRewardPurchaseInput](), Status: http.StatusAccepted, Response: Object(
			Req("transaction", rewardTransaction),
			Req("status", Const("APPROVED")),
			Req("message", String()),
		),
		Errors: []int{http.StatusConflict}})
	a.Add("GET "+member+"/tiers/transactions", Op{Summary: "List a member's tier transactions", Auth: Loyalty,
		PathParams: mid, Query: v2ListQuery, Response: V2List(Object(
			Req("id", String()),
			Req("program_id", String()),
			Req("member_id", String()),
			Req("tier_structure_id", String()),
			Req("tier_id", String().Null()),
			Req("type", Enum("UPGRADED", "DOWNGRADED", "JOINED", "LEFT", "PROLONGED")),
			Req("details", FreeObject()),
			Req("status", Const("APPROVED")),
			Req("created_at", DateTime()),
			Req("object", Const("tier_transaction")),
		))})
}

// loyaltyMemberUpdateAndExamine documents PUT …/members/{memberId} and the
// rewards preview.
func loyaltyMemberUpdateAndExamine(a *API) {
	a.Add("PUT /v2/loyalties/programs/{programId}/members/{memberId}", Op{Summary: "Update a loyalty member",
		Description: "metadata keys merge into the stored ones; null clears them.", Auth: Loyalty,
		PathParams: map[string]string{"programId": "The program's ID.", "memberId": "The member's ID."},
		Body:       Object(Req("metadata", FreeObject().Null())), BodyRequired: true, Response: Ref("LoyaltyMember")})
	estimation := Object(
		Req("card", Object(Req("id", String()), Req("card_definition_id", String()), Req("card_type", Const("INDIVIDUAL")),
			Req("code", String().Null()), Req("object", Const("card")))),
		Req("rewards", Array(Object(
			Req("reward", Object(Req("id", String()), Req("object", Const("reward")))),
			Req("status", Enum("AVAILABLE", "UNAVAILABLE").Desc("UNAVAILABLE when the points do not cover the cost (insufficient_balance) or the stock is out (no reason listed).")),
			Req("cost", Object(Req("points", Integer()), Req("object", Const("reward_cost")))),
			Opt("unavailability_reasons", Array(Object(Req("reason", Const("insufficient_balance")),
				Req("details", Object(Req("required", Integer()), Req("available", Integer()), Req("missing", Integer()))),
				Req("object", Const("reward_unavailability_reason"))))),
			Req("object", Const("reward_estimation")),
		))),
		Req("object", Const("card_estimation")),
	).Desc("Cards without a card definition are not listed (rewards are assigned per definition).")
	a.Add("POST /v2/loyalties/examine/rewards", Op{Summary: "Examine the rewards a customer's points buy", Auth: Loyalty,
		Description: "Nothing is written.", Body: Input[examine.ExamineRewardsInput]("customer_identification"), BodyRequired: true,
		Response: Object(
			Req("customer", Object(Req("id", String()), Req("source_id", String().Null()), Req("metadata", FreeObject()),
				Req("object", Const("customer")))),
			Req("rewards", Array(Object(Req("id", String()), Req("name", String()), Req("type", Enum("MATERIAL", "DIGITAL")),
				Req("metadata", FreeObject()), Req("object", Const("reward"))))),
			Req("memberships", Array(Object(
				Req("member", Object(Req("id", String()), Req("customer_id", String()), Req("program_id", String()),
					Req("metadata", Metadata()), Req("object", Const("member")))),
				Req("program", Object(Req("id", String()), Req("name", String()), Req("metadata", Metadata()), Req("object", Const("program")))),
				Req("cards", Array(estimation)),
				Req("object", Const("member_rewards_opportunity")),
			))),
			Req("object", Const("rewards_examine_result")),
		)})
}

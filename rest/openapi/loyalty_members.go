package openapi

import (
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// loyaltyMembers documents a program's members, their cards, the cards'
// activities and transactions and points adjustments
// (rest/loyaltyv2: members.go, activities.go).
func loyaltyMembers(a *API) {
	a.Tag("Loyalty members", "Customers' memberships of loyalty programs and their cards (v2).")
	card := Object(
		Req("id", String()),
		Req("code", String().Null()),
		Req("program_id", String()),
		Req("card_definition_id", String().Null()),
		Req("member_id", String().Null()),
		Req("balance", Integer().Desc("Points.")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("card")),
	)
	a.Schema("LoyaltyCard", card)
	counters := func(names ...string) *Schema {
		props := make([]Prop, len(names))
		for i, n := range names {
			props[i] = Req(n, Integer())
		}
		return Object(props...)
	}
	a.Schema("MemberCard", Object(
		Req("member_role", Const("OWNER")),
		Req("created_at", DateTime().Desc("The card's created_at (the assignment time is not stored).")),
		Req("card", Object(
			Req("id", String()),
			Opt("card_definition_id", String()),
			Req("card_type", Const("INDIVIDUAL")),
			Req("code", String().Null()),
			Opt("lifetime_bucket", Object(
				Req("points", counters("total", "earned", "added", "purchased", "purchased_reversed", "subtracted",
					"expired", "spent", "refunded", "returned", "locked", "unlocked")),
				Req("pending_points", counters("total", "activated", "canceled")),
			).Desc("Lifetime counters read from the card's ledger; purchased, purchased_reversed, refunded, locked and unlocked are 0 (nothing moves them here). Left out of webhook payloads.")),
			Req("balance", Object(Req("points", Integer()), Opt("pending_points", Integer()))),
			Opt("next_expiration", Object(Req("points", Integer()), Req("date", Date())).Null().
				Desc("The points of the card's buckets that expire soonest, and that day.")),
			Opt("next_activation", Object(Req("points", Integer()), Req("type", EnumOf("IMMEDIATE", "PERIOD_BASED", "FIXED_DATES", "EVENT_BASED")),
				Opt("date", Date()), Opt("cancel_date", Date())).Null().
				Desc("The pending points due soonest: date, or cancel_date for EVENT_BASED.")),
			Req("program_id", String()),
			Req("member_id", String().Null()),
			Req("created_at", DateTime()),
			Req("updated_at", DateTime().Null()),
			Req("object", Const("card")),
		)),
		Req("object", Const("member_card")),
	))
	member := a.Schema("LoyaltyMember", Object(
		Req("id", String()),
		Req("program_id", String()),
		Req("customer_id", String()),
		Req("status", EnumOf(memberStatuses...)),
		Req("metadata", Metadata()),
		Req("cards", Array(Ref("MemberCard"))),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("member")),
	))
	a.Schema("ActivitySource", FromGo[jsonfield.ActivitySource]().
		Desc("Who caused the activity: an API key (name, app_id, client_app_id) or a user."))
	transaction := a.Schema("CardTransaction", Object(
		Req("id", String()),
		Req("card_id", String()),
		Req("program_id", String()),
		Req("member_id", String()),
		Req("card_definition_id", String()),
		Req("card_type", Const("INDIVIDUAL")),
		Req("type", Enum("ADMIN_CREDIT", "ADMIN_DEBIT", "POINTS_EARNED", "PENDING_POINTS_ACTIVATED",
			string(cardtransaction.TypePOINTS_SPENT_ON_REWARD), string(cardtransaction.TypePOINTS_REFUNDED),
			string(cardtransaction.TypePOINTS_EXPIRED), string(cardtransaction.TypePOINTS_SPENT_ON_ORDER)).
			Desc("The documents' type, mapped from the ledger's (docs/loyalty.md).")),
		Req("details", Object(Req("reason", String().Null()), Req("metadata", Metadata()), Req("points", Object(Req("total", Integer()))))),
		Req("status", Const("APPROVED")),
		Req("amount", Integer()),
		Req("balance", Integer().Desc("The card's points after the change.")),
		Req("reason", String().Null()),
		Req("source_id", String().Null()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("card_transaction")),
	))
	programID := map[string]string{"programId": "The program's ID."}
	memberIDs := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID."}
	cardIDs := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID.",
		"cardId": "The card's ID."}
	base := "/v2/loyalties/programs/{programId}/members"
	a.Add("POST "+base, Op{Summary: "Add a member to a loyalty program", Auth: Loyalty, PathParams: programID,
		Body: Input[loyaltybase.CreateLoyaltyMemberInput]("customer_id"), BodyRequired: true, Response: member,
		Errors: []int{409}})
	a.Add("GET "+base, Op{Summary: "List a loyalty program's members", Auth: Loyalty, PathParams: programID,
		Query: v2ListQuery, Response: V2List(member)})
	a.Add("GET "+base+"/{memberId}", Op{Summary: "Get a loyalty member", Auth: Loyalty, PathParams: memberIDs,
		Response: member})
	a.Add("POST "+base+"/{memberId}/activate", Op{Summary: "Activate a loyalty member", Auth: Loyalty,
		PathParams: memberIDs, Response: member, Errors: []int{409}})
	a.Add("POST "+base+"/{memberId}/deactivate", Op{Summary: "Deactivate a loyalty member", Auth: Loyalty,
		PathParams: memberIDs, Response: member, Errors: []int{409}})
	cardPath := base + "/{memberId}/cards/{cardId}"
	a.Add("GET "+cardPath+"/activities", Op{Summary: "List card activities", Auth: Loyalty, PathParams: cardIDs,
		Query: append(append([]Param{}, v2ListQuery...), activityFilters(schema.CardActivityTypes)...),
		Response: V2List(Object(
			Req("id", String()),
			Req("type", Enum(schema.CardActivityTypes...)),
			Req("card_id", String()),
			Req("data", FreeObject().Desc("What changed (the card, the member, an error).")),
			Req("created_at", DateTime()),
			Req("group_id", String().Null()),
			Req("source", Ref("ActivitySource").Null()),
			Req("object", Const("card_activity")),
		))})
	a.Add("GET "+cardPath+"/transactions", Op{Summary: "List card transactions", Auth: Loyalty,
		PathParams: cardIDs, Query: v2ListQuery, Response: V2List(transaction)})
	a.Add("POST "+cardPath+"/points", Op{Summary: "Add or remove a card's points", Auth: Loyalty,
		PathParams: cardIDs, Body: Input[loyaltybase.AdjustPointsInput]("points"), BodyRequired: true,
		Response: Object(
			Req("status", Enum("TRANSACTION_CREATED", "NO_CHANGE")),
			Req("message", String()),
			Req("transaction", transaction.Null()),
		)})
}

// activityFilters are the filters of the activity lists.
func activityFilters(types []string) []Param {
	return []Param{
		Query("filters[junction]", Enum("AND", "OR"), "How the conditions combine (default AND)."),
		Query("filters[id][conditions][$is]", String(), ""),
		Query("filters[id][conditions][$in]", Array(String()).AtMost(100), ""),
		Query("filters[type][conditions][$is]", Enum(types...), ""),
		Query("filters[type][conditions][$in]", Array(Enum(types...)), ""),
		Query("filters[created_at][conditions][$before]", String(), "A date or date-time."),
		Query("filters[created_at][conditions][$after]", String(), "A date or date-time."),
	}
}

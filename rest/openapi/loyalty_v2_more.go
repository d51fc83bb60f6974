package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/examine"
)

// loyaltyV2More documents #31's remaining v2 routes: the earning preview,
// member batches, benefit transactions, order payments and the reports
// (rest/loyaltyv2/examine_earning.go and its neighbours).
func loyaltyV2More(a *API) {
	loyaltyExamineEarning(a)
	loyaltyReports(a)
	loyaltyCardBuckets(a)
	loyaltyProgramReports(a)
	a.Add("POST /v2/loyalties/programs/{programId}/members/batch", Op{Summary: "Batch create program members", Auth: Loyalty,
		PathParams: map[string]string{"programId": "The program's ID."},
		Description: "Schedules an async action (LOYALTY.MEMBERS_BATCH_CREATE) that enrols each entry like a single member " +
			"create, 100 per committed batch; an entry that fails (unknown customer, bad status, already a member, a repeat " +
			"of an earlier entry) is reported in the result's results and skipped. 404 for an unknown program, 423 unless it is ACTIVE.",
		Body: Array(Input[loyalty.MemberBatchEntry]()), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusLocked, http.StatusRequestEntityTooLarge}})
	a.Add("GET /v2/loyalties/programs/{programId}/members/{memberId}/benefits/transactions", Op{Summary: "List a member's benefit transactions",
		Auth: Loyalty, PathParams: map[string]string{"programId": "The program's ID.", "memberId": "The member's ID."},
		Description: "The fulfilments of benefits: each card transaction of the member's cards by an earning rule that gives a benefit. " +
			"The document's filters are not supported.",
		Query: v2ListQuery, Response: V2List(Object(
			Req("id", String()),
			Req("benefit_id", String()),
			Req("program_id", String()),
			Req("member_id", String()),
			Req("earning_rule_id", String()),
			Req("type", Const("FULFILLMENT")),
			Req("details", Object(Req("reason", String()), Req("rejection", FreeObject().Null()), Req("metadata", FreeObject()),
				Req("result", Object(Req("card_id", String()), Req("card_transaction_id", String()), Req("points", Integer()))))),
			Req("status", Const("APPROVED")),
			Req("created_at", DateTime()),
			Req("updated_at", DateTime().Null()),
			Req("object", Const("benefit_transaction")),
		))})
}

// loyaltyExamineEarning documents POST /v2/loyalties/examine/earning-rules.
func loyaltyExamineEarning(a *API) {
	ruleRef := Object(Req("id", String()), Req("object", Const("earning_rule")))
	card := Object(
		Req("card", Object(Req("id", String()), Req("card_definition_id", String()), Req("card_type", Const("INDIVIDUAL")),
			Req("code", String().Null()), Req("object", Const("card")))),
		Req("points_estimation", Integer()),
		Req("earning_rules", Array(Object(Req("earning_rule", ruleRef), Req("points_estimation", Integer()),
			Req("object", Const("earning_rule_estimation"))))),
		Req("object", Const("card_estimation")),
	)
	benefit := Object(
		Req("benefit", Object(Req("id", String()), Req("name", String()),
			Req("type", Enum("POINTS", "POINTS_PROPORTIONAL", "MATERIAL", "DIGITAL")), Req("object", Const("benefit")))),
		Req("earning_rules", Array(Object(Req("earning_rule", ruleRef), Req("object", Const("earning_rule_estimation"))))),
		Req("object", Const("benefit_estimation")),
	)
	a.Add("POST /v2/loyalties/examine/earning-rules", Op{Summary: "Examine earning rules", Auth: Loyalty,
		Description: "What the ACTIVE earning rules of the examined event(s) would award the customer's (or one member's) cards, within the rules' trigger limits; the context's customer metadata is laid over the stored one and its order is assumed paid. Nothing is written.",
		Body:        Input[examine.ExamineEarningInput]("trigger", "customer_identification"), BodyRequired: true,
		Response: Object(
			Opt("event", Enum("customer.order.paid", "customer.segment.entered", "customer.custom_event").Desc("Absent with trigger ALL: each rule names its own event.")),
			Req("customer", Object(Req("id", String()), Req("source_id", String().Null()), Req("metadata", FreeObject()),
				Req("object", Const("customer")))),
			Req("earning_rules", Array(Object(Req("id", String()), Req("name", String()), Req("metadata", FreeObject()),
				Opt("event", Enum("customer.order.paid", "customer.segment.entered", "customer.custom_event")),
				Req("object", Const("earning_rule"))))),
			Req("memberships", Array(Object(
				Req("member", Object(Req("id", String()), Req("customer_id", String()), Req("program_id", String()),
					Req("metadata", FreeObject()), Req("object", Const("member")))),
				Req("program", Object(Req("id", String()), Req("name", String()), Req("metadata", FreeObject()),
					Req("object", Const("program")))),
				Req("cards", Array(card)),
				Req("benefits", Array(benefit)),
				Req("object", Const("member_earnings_opportunity")),
			))),
			Req("object", Const("earnings_examine_result")),
		)})
}

// reportQuery is the date range of the v2 reports.
var reportQuery = []Param{
	{Name: "start_date", Required: true, Schema: Date(), Description: "First day (UTC) of the range."},
	{Name: "end_date", Required: true, Schema: Date(), Description: "Last day (UTC) of the range, included."},
	{Name: "resolution", Required: true, Schema: Enum("day", "week", "month", "quarter"),
		Description: "Period of a row; the range may span at most 90 days, 12 weeks, 12 months or 4 quarters (400 otherwise)."},
}

// loyaltyReports documents the v2 points reports (rest/loyaltyv2/reports.go).
func loyaltyReports(a *API) {
	row := Object(Req("date", Date()))
	for _, f := range []string{"points_total", "points_earned", "points_added", "points_purchased", "points_purchased_reversed",
		"points_subtracted", "points_expired", "points_spent", "points_refunded", "points_returned", "points_locked",
		"points_unlocked", "pending_points_total", "pending_points_activated", "pending_points_canceled"} {
		row = row.With(Req(f, Integer()))
	}
	a.Add("GET /v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/reports/daily", Op{
		Summary: "Card points report", Auth: Loyalty,
		PathParams: map[string]string{"programId": "The program's ID.", "memberId": "The member's ID.", "cardId": "The card's ID."},
		Description: "Sums of the card's transactions per period: earned (by earning rules), added, subtracted, spent on rewards, " +
			"refunded and total (the net change). Purchased, expired, returned, locked and pending points are 0 (not tracked on v2 cards).",
		Query: reportQuery, Response: Object(Req("data", Array(row.With(Req("object", Const("card_daily_report"))))),
			Req("object", Const("report")))})
	a.Add("GET /v2/loyalties/programs/{programId}/members/{memberId}/earning-rules/{earningRuleId}/reports/daily", Op{
		Summary: "Member earning rule report", Auth: Loyalty,
		PathParams:  map[string]string{"programId": "The program's ID.", "memberId": "The member's ID.", "earningRuleId": "The earning rule's ID."},
		Description: "How many times per period the earning rule awarded the member's cards.",
		Query:       reportQuery, Response: Object(Req("data", Array(Object(Req("date", Date()), Req("count", Integer()),
			Req("object", Const("earning_rule_daily_report"))))), Req("object", Const("report")))})
}

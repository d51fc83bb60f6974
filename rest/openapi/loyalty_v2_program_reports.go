package openapi

// loyaltyProgramReports documents the program spending, earning-rules,
// points-earnings and tiers reports (rest/loyaltyv2/program_reports.go).
func loyaltyProgramReports(a *API) {
	ids := map[string]string{"programId": "The program's ID."}
	spending := Object(Req("card_definition_id", String()), Req("success", Integer()), Req("success_on_reward", Integer()),
		Req("success_on_order", Integer()), Req("points", Integer()), Req("points_on_rewards", Integer()),
		Req("points_on_order", Integer()), Req("amount_on_order", Integer()))
	rules := Object(Req("earning_rule_id", String()), Req("success_count", Integer()), Req("failures_count", Integer()),
		Req("failures_breakdown", MapOf(Integer())))
	report := func(row *Schema) *Schema { return Object(Req("data", Array(row)), Req("object", Const("report"))) }
	const filters = " The document's filters are not supported (400 invalid_query_params)."
	a.Add("GET /v2/loyalties/programs/{programId}/reports/spending/daily", Op{Summary: "Program spending report", Auth: Loyalty,
		PathParams: ids, Query: reportQuery,
		Description: "Per period and card definition: reward purchases (success, points spent). Order payments do not exist yet (0)." + filters,
		Response:    report(spending.With(Req("date", Date()), Req("object", Const("spending_daily_report"))))})
	a.Add("GET /v2/loyalties/programs/{programId}/reports/spending/summary", Op{Summary: "Program spending summary", Auth: Loyalty,
		PathParams:  ids,
		Description: "The spending report over all time, one row per card definition (id: the card definition's)." + filters,
		Response:    report(spending.With(Req("id", String()), Req("object", Const("spending_summary_report"))))})
	a.Add("GET /v2/loyalties/programs/{programId}/reports/earning-rules/daily", Op{Summary: "Program earning rules report", Auth: Loyalty,
		PathParams: ids, Query: reportQuery,
		Description: "Per period, each earning rule that made card transactions on the program's cards: their count. Failures are not recorded (0)." + filters,
		Response:    report(rules.With(Req("date", Date()), Req("object", Const("program_earning_rules_daily_report"))))})
	earnings := Object(Req("earning_rule_id", String()), Req("card_definition_id", String()), Req("success_count", Integer()),
		Req("points", Integer()), Req("pending_points", Integer()))
	a.Add("GET /v2/loyalties/programs/{programId}/reports/points-earnings/daily", Op{Summary: "Program points earnings report", Auth: Loyalty,
		PathParams: ids, Query: reportQuery,
		Description: "Per period, earning rule and card definition: the rule's credits (count, points). Earning items are not " +
			"recorded (no earning_item_id); pending points do not exist on v2 cards yet (0)." + filters,
		Response: report(earnings.With(Req("date", Date()), Req("object", Const("program_points_earnings_daily_report"))))})
	a.Add("GET /v2/loyalties/programs/{programId}/reports/points-earnings/summary", Op{Summary: "Program points earnings summary", Auth: Loyalty,
		PathParams:  ids,
		Description: "The points earnings report over all time (id: rule id-card definition id)." + filters,
		Response:    report(earnings.With(Req("id", String()), Req("object", Const("program_points_earnings_summary_report"))))})
	tiers := Object(Req("tier_structure_id", String()), Req("tier_id", String()), Req("joins", Integer()), Req("upgrades", Integer()),
		Req("downgrades", Integer()), Req("lefts", Integer()), Req("prolongs", Integer()))
	a.Add("GET /v2/loyalties/programs/{programId}/reports/tiers/daily", Op{Summary: "Program tiers report", Auth: Loyalty,
		PathParams: ids, Query: reportQuery,
		Description: "Per period and tier with moves: joins, upgrades and downgrades into the tier, lefts (LEFT moves out of it) " +
			"from the members' tier transactions; prolongations do not exist yet (0)." + filters,
		Response: report(tiers.With(Req("date", Date()), Req("object", Const("program_tiers_daily_report"))))})
	a.Add("GET /v2/loyalties/programs/{programId}/reports/tiers/summary", Op{Summary: "Program tiers summary", Auth: Loyalty,
		PathParams:  ids,
		Description: "The tiers report over all time, one row per tier with moves (id: the tier's)." + filters,
		Response:    report(tiers.With(Req("id", String()), Req("object", Const("program_tiers_summary_report"))))})
	a.Add("GET /v2/loyalties/programs/{programId}/reports/earning-rules/summary", Op{Summary: "Program earning rules summary", Auth: Loyalty,
		PathParams:  ids,
		Description: "The earning rules report over all time, one row per rule (id: the rule's)." + filters,
		Response:    report(rules.With(Req("id", String()), Req("object", Const("program_earning_rules_summary_report"))))})
}

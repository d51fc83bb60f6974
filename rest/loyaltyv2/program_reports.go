package loyaltyv2

import (
	"context"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty/report"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerProgramReports adds the program spending, earning-rules,
// points-earnings and tiers reports, daily and summary (graph/loyalty/report/report_program.go).
func registerProgramReports(v2 *gin.RouterGroup) {
	base := "/programs/:programId/reports/"
	for _, daily := range []bool{true, false} {
		v2.GET(base+"spending/"+reportKind(daily), programReport(daily, report.ProgramSpendingReport,
			func(r *report.SpendingReport) map[string]any {
				row := map[string]any{"card_definition_id": r.CardDefinitionID, "success": r.Success, "success_on_reward": r.Success,
					"success_on_order": 0, "points": r.Points, "points_on_rewards": r.Points, "points_on_order": 0, "amount_on_order": 0}
				return reportRow(row, daily, r.Date, r.CardDefinitionID, "spending_daily_report", "spending_summary_report")
			}))
		v2.GET(base+"earning-rules/"+reportKind(daily), programReport(daily, report.ProgramEarningRulesReport,
			func(r *report.RuleReport) map[string]any {
				row := map[string]any{"earning_rule_id": r.EarningRuleID, "success_count": r.Count, "failures_count": 0,
					"failures_breakdown": map[string]any{}}
				return reportRow(row, daily, r.Date, r.EarningRuleID, "program_earning_rules_daily_report", "program_earning_rules_summary_report")
			}))
		v2.GET(base+"points-earnings/"+reportKind(daily), programReport(daily, report.ProgramPointsEarningsReport,
			func(r *report.EarningsReport) map[string]any {
				row := map[string]any{"earning_rule_id": r.EarningRuleID, "card_definition_id": r.CardDefinitionID,
					"success_count": r.Count, "points": r.Points, "pending_points": 0}
				return reportRow(row, daily, r.Date, r.EarningRuleID+"-"+r.CardDefinitionID,
					"program_points_earnings_daily_report", "program_points_earnings_summary_report")
			}))
		v2.GET(base+"tiers/"+reportKind(daily), programReport(daily, report.ProgramTiersReport,
			func(r *report.TierReport) map[string]any {
				row := map[string]any{"tier_structure_id": r.TierStructureID, "tier_id": r.TierID, "joins": r.Joins,
					"upgrades": r.Upgrades, "downgrades": r.Downgrades, "lefts": r.Lefts, "prolongs": r.Prolongs}
				return reportRow(row, daily, r.Date, r.TierID, "program_tiers_daily_report", "program_tiers_summary_report")
			}))
	}
}

func reportKind(daily bool) string {
	if daily {
		return "daily"
	}
	return "summary"
}

// reportRow completes a row: its date (daily) or id (summary) and object.
func reportRow(row map[string]any, daily bool, date, id, dailyObject, summaryObject string) map[string]any {
	if daily {
		row["date"], row["object"] = date, dailyObject
	} else {
		row["id"], row["object"] = id, summaryObject
	}
	return row
}

// programReport serves a program report: the range of a daily one (a
// summary has none), the document's filters refused (not supported: 400
// rather than an unfiltered answer).
func programReport[T any](daily bool, run func(ctx context.Context, programID string, r *report.ReportRange) ([]T, error), render func(T) map[string]any) gin.HandlerFunc {
	return func(c *gin.Context) {
		for k := range queryOf(c) {
			if strings.HasPrefix(k, "filters") {
				httpkit.RenderError(c, apperr.InvalidQueryParams("Query parameter filters is not supported by this report"))
				return
			}
		}
		var r *report.ReportRange
		if daily {
			rr := reportRange(c)
			r = &rr
		}
		rows, err := run(c.Request.Context(), c.Param("programId"), r)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		data := make([]map[string]any, len(rows))
		for i, row := range rows {
			data[i] = render(row)
		}
		c.PureJSON(http.StatusOK, gin.H{"data": data, "object": "report"})
	}
}

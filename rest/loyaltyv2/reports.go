package loyaltyv2

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/loyalty/report"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerReports adds the v2 points reports computed from the stored card
// transactions (graph/loyalty/report/reports.go): GET …/cards/{cardId}/reports/daily
// and …/earning-rules/{earningRuleId}/reports/daily.
func registerReports(v2 *gin.RouterGroup) {
	v2.GET("/programs/:programId/members/:memberId/cards/:cardId/reports/daily", func(c *gin.Context) {
		rows, err := report.CardReport(c.Request.Context(), c.Param("programId"), c.Param("memberId"), c.Param("cardId"), reportRange(c))
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		data := make([]map[string]any, len(rows))
		for i, r := range rows {
			data[i] = map[string]any{"date": r.Date, "points_total": r.Total, "points_earned": r.Earned, "points_added": r.Added,
				"points_purchased": 0, "points_purchased_reversed": 0, "points_subtracted": r.Subtracted, "points_expired": 0,
				"points_spent": r.Spent, "points_refunded": r.Refunded, "points_returned": 0, "points_locked": 0, "points_unlocked": 0,
				"pending_points_total": 0, "pending_points_activated": 0, "pending_points_canceled": 0, "object": "card_daily_report"}
		}
		c.PureJSON(http.StatusOK, gin.H{"data": data, "object": "report"})
	})
	v2.GET("/programs/:programId/members/:memberId/earning-rules/:earningRuleId/reports/daily", func(c *gin.Context) {
		rows, err := report.MemberEarningRuleReport(c.Request.Context(), c.Param("programId"), c.Param("memberId"),
			c.Param("earningRuleId"), reportRange(c))
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		data := make([]map[string]any, len(rows))
		for i, r := range rows {
			data[i] = map[string]any{"date": r.Date, "count": r.Count, "object": "earning_rule_daily_report"}
		}
		c.PureJSON(http.StatusOK, gin.H{"data": data, "object": "report"})
	})
}

// reportRange reads a report's start_date, end_date and resolution.
func reportRange(c *gin.Context) report.ReportRange {
	return report.ReportRange{StartDate: c.Query("start_date"), EndDate: c.Query("end_date"), Resolution: c.Query("resolution")}
}

package campaigns

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// dates are a summary's optional start_date and end_date.
type dates struct{ start, end *time.Time }

// summaryDates reads GET /v1/campaigns/{campaignId}/summary's
// start_date and end_date (dates or date-times).
func summaryDates(c *gin.Context) (dates, error) {
	var d dates
	err := httpkit.QueryTimes(c, map[string]**time.Time{"start_date": &d.start, "end_date": &d.end})
	return d, err
}

// SummaryJSON is the real service's campaign_summary object: the
// base counts, then the blocks of the campaign's type (null ones left out).
func SummaryJSON(s *campaign.CampaignSummary) map[string]any {
	out := map[string]any{
		"object": "campaign_summary", "campaign": JSON(s.Campaign),
		"redemptions": s.Redemptions, "redemptions_succeeded": s.RedemptionsSucceeded, "redemptions_failed": s.RedemptionsFailed,
		"rollbacks": s.Rollbacks, "rollbacks_succeeded": s.RollbacksSucceeded, "rollbacks_failed": s.RollbacksFailed,
		"validations": s.Validations, "validations_succeeded": s.ValidationsSucceeded, "validations_failed": s.ValidationsFailed,
		"orders_amount": s.OrdersAmount, "orders_rolledback_amount": s.OrdersRolledbackAmount,
	}
	optional := map[string]any{
		"vouchers_created": s.VouchersCreated, "vouchers_deleted": s.VouchersDeleted,
		"publications": s.Publications, "publications_succeeded": s.PublicationsSucceeded, "publications_failed": s.PublicationsFailed,
		"discounted_amount": s.DiscountedAmount, "rolledback_discounted_amount": s.RolledbackDiscountAmount,
		"referred_customers": s.ReferredCustomers,
	}
	for k, v := range optional {
		switch p := v.(type) {
		case *int:
			if p != nil {
				out[k] = *p
			}
		case *int64:
			if p != nil {
				out[k] = *p
			}
		}
	}
	if g := s.Gift; g != nil {
		for k, v := range map[string]int64{"created_vouchers_amount": g.CreatedVouchersAmount, "amount_added": g.AmountAdded,
			"amount_deleted": g.AmountDeleted, "amount_redeemed": g.AmountRedeemed, "amount_rolledback": g.AmountRolledback,
			"amount_subtracted": g.AmountSubtracted} {
			out[k] = v
		}
	}
	if l := s.Loyalty; l != nil {
		for k, v := range map[string]int64{"created_vouchers_points": l.CreatedVouchersPoints, "points_deleted": l.PointsDeleted,
			"points_subtracted": l.PointsSubtracted, "points_added": l.PointsAdded, "points_rewarded": l.PointsRewarded,
			"points_redeemed": l.PointsRedeemed, "points_rolledback": l.PointsRolledback, "points_expired": l.PointsExpired,
			"points_transferred_out": l.PointsTransferredOut, "points_transferred_in": l.PointsTransferredIn,
			"pending_points_added": l.PendingPointsAdded, "pending_points_subtracted": l.PendingPointsSubtracted,
			"pending_points_activated": l.PendingPointsActivated, "pending_points_canceled": l.PendingPointsCanceled} {
			out[k] = v
		}
	}
	return out
}

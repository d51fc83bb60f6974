package loyaltyv1

import (
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/points"
)

// maxPendingDays bounds an earning rule's pending period (reference §3.6).
const maxPendingDays = 90

// checkPointsPolicies refuses an earning rule's pending_points that is not
// {period_type: DAY, period_value: 1–90}, and expiration_rules that do not
// date points (graph/points: MONTH or FIXED_DAY_OF_YEAR).
func checkPointsPolicies(pending, expiration map[string]any) error {
	if pending != nil {
		if _, ok := pendingDays(pending); !ok {
			return apperr.InvalidPayload("Property .pending_points must be {period_type: DAY, period_value: 1-%d}", maxPendingDays)
		}
	}
	if expiration != nil {
		if _, err := points.LastDayByRules(expiration, time.Now()); err != nil {
			return apperr.InvalidPayload("Property .expiration_rules is invalid: %s", err.Error())
		}
	}
	return nil
}

// pendingDays is the number of days a rule's points stay pending.
func pendingDays(pending map[string]any) (int, bool) {
	if pending["period_type"] != "DAY" {
		return 0, false
	}
	n, ok := points.WholeNumber(pending["period_value"])
	if !ok || n < 1 || n > maxPendingDays {
		return 0, false
	}
	return n, true
}

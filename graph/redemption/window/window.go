package window

import (
	"time"

	"github.com/sosodev/duration"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// Window is the date and recurrence rules a voucher (or its campaign) is
// usable under. All times are UTC.
type Window struct {
	Start, Expiration *time.Time
	Timeframe         *jsonfield.ValidityTimeframe
	DaysOfWeek        []int
	Hours             *jsonfield.ValidityHours
}

// Keys of a window that does not admit a moment.
const (
	KeyNotActiveYet = "voucher_not_active"
	KeyExpired      = "voucher_expired"
	KeyNotActiveNow = "voucher_not_active_now"
)

// Check returns "" when now is inside the window, or the failure key:
// before start_date → voucher_not_active, after expiration_date →
// voucher_expired, outside the timeframe, days or hours →
// voucher_not_active_now. A timeframe repeats every interval from
// start_date (months and years count as 30 and 365 days).
func (w Window) Check(now time.Time) string {
	now = now.UTC()
	if w.Start != nil && now.Before(*w.Start) {
		return KeyNotActiveYet
	}
	if w.Expiration != nil && now.After(*w.Expiration) {
		return KeyExpired
	}
	if w.Timeframe != nil && w.Start != nil && !inTimeframe(now, *w.Start, *w.Timeframe) {
		return KeyNotActiveNow
	}
	if len(w.DaysOfWeek) > 0 && !containsInt(w.DaysOfWeek, int(now.Weekday())) {
		return KeyNotActiveNow
	}
	if w.Hours != nil && len(w.Hours.Daily) > 0 && !inDailyHours(now, w.Hours.Daily) {
		return KeyNotActiveNow
	}
	return ""
}

func inTimeframe(now, start time.Time, tf jsonfield.ValidityTimeframe) bool {
	d, err1 := duration.Parse(tf.Duration)
	i, err2 := duration.Parse(tf.Interval)
	if err1 != nil || err2 != nil {
		return true // validated on write; an unreadable stored value does not lock the voucher
	}
	length, every := d.ToTimeDuration(), i.ToTimeDuration()
	if every <= 0 {
		return now.Sub(start) < length
	}
	return now.Sub(start)%every < length
}

func inDailyHours(now time.Time, daily []jsonfield.DailyValidity) bool {
	clock := now.Format("15:04")
	for _, d := range daily {
		if len(d.DaysOfWeek) > 0 && !containsInt(d.DaysOfWeek, int(now.Weekday())) {
			continue
		}
		if clock >= d.StartTime && clock < d.ExpirationTime {
			return true
		}
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

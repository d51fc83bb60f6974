package redemption

import (
	"time"

	"github.com/sosodev/duration"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// window is the date and recurrence rules a voucher (or its campaign) is
// usable under. All times are UTC.
type window struct {
	start, expiration *time.Time
	timeframe         *jsonfield.ValidityTimeframe
	daysOfWeek        []int
	hours             *jsonfield.ValidityHours
}

// Keys of a window that does not admit a moment.
const (
	keyNotActiveYet = "voucher_not_active"
	keyExpired      = "voucher_expired"
	keyNotActiveNow = "voucher_not_active_now"
)

// check returns "" when now is inside the window, or the failure key:
// before start_date → voucher_not_active, after expiration_date →
// voucher_expired, outside the timeframe, days or hours →
// voucher_not_active_now. A timeframe repeats every interval from
// start_date (months and years count as 30 and 365 days).
func (w window) check(now time.Time) string {
	now = now.UTC()
	if w.start != nil && now.Before(*w.start) {
		return keyNotActiveYet
	}
	if w.expiration != nil && now.After(*w.expiration) {
		return keyExpired
	}
	if w.timeframe != nil && w.start != nil && !inTimeframe(now, *w.start, *w.timeframe) {
		return keyNotActiveNow
	}
	if len(w.daysOfWeek) > 0 && !containsInt(w.daysOfWeek, int(now.Weekday())) {
		return keyNotActiveNow
	}
	if w.hours != nil && len(w.hours.Daily) > 0 && !inDailyHours(now, w.hours.Daily) {
		return keyNotActiveNow
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

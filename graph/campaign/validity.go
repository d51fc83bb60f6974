package campaign

import (
	"regexp"
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
)

// isoDuration matches ISO 8601 durations such as P1D, PT1H, P1Y2M3DT4H5M6S, P2W.
var isoDuration = regexp.MustCompile(`^P(?:\d+W|(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?)$`)

// Hhmm matches a 24-hour HH:MM time.
var Hhmm = regexp.MustCompile(`^(?:[01]\d|2[0-3]):[0-5]\d$`)

// validDuration reports whether s is a non-empty ISO 8601 duration.
func validDuration(s string) bool {
	return isoDuration.MatchString(s) && s != "P" && s[len(s)-1] != 'T'
}

// validity is the set of date and recurrence rules campaigns and vouchers share.
type validity struct {
	StartDate      *time.Time
	ExpirationDate *time.Time
	Timeframe      *jsonfield.ValidityTimeframe
	DaysOfWeek     []int
	Hours          *jsonfield.ValidityHours
}

// validate checks every validity rule and names the offending field.
func (v validity) validate() error {
	if v.StartDate != nil && v.ExpirationDate != nil && !v.ExpirationDate.After(*v.StartDate) {
		return apperr.InvalidPayload("Property .expiration_date must be later than .start_date")
	}
	if tf := v.Timeframe; tf != nil {
		if v.StartDate == nil {
			return apperr.InvalidPayload("Property .validity_timeframe requires .start_date")
		}
		if !validDuration(tf.Duration) {
			return apperr.InvalidPayload("Property .validity_timeframe.duration must be an ISO 8601 duration (e.g. PT1H), got %q", tf.Duration)
		}
		if !validDuration(tf.Interval) {
			return apperr.InvalidPayload("Property .validity_timeframe.interval must be an ISO 8601 duration (e.g. P2D), got %q", tf.Interval)
		}
	}
	for i, d := range v.DaysOfWeek {
		if d < 0 || d > 6 {
			return apperr.InvalidPayload("Property .validity_day_of_week[%d] must be between 0 (Sunday) and 6 (Saturday), got %d", i, d)
		}
	}
	if v.Hours != nil {
		for i, w := range v.Hours.Daily {
			if !Hhmm.MatchString(w.StartTime) {
				return apperr.InvalidPayload("Property .validity_hours.daily[%d].start_time must be a HH:MM time, got %q", i, w.StartTime)
			}
			if !Hhmm.MatchString(w.ExpirationTime) {
				return apperr.InvalidPayload("Property .validity_hours.daily[%d].expiration_time must be a HH:MM time, got %q", i, w.ExpirationTime)
			}
			if len(w.DaysOfWeek) == 0 {
				return apperr.InvalidPayload("Property .validity_hours.daily[%d].days_of_week must list at least one day", i)
			}
			for j, d := range w.DaysOfWeek {
				if d < 0 || d > 6 {
					return apperr.InvalidPayload("Property .validity_hours.daily[%d].days_of_week[%d] must be between 0 and 6, got %d", i, j, d)
				}
			}
		}
	}
	return nil
}

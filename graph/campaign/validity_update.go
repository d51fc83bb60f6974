package campaign

import (
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// validitySetter is what the campaign and voucher update builders share.
type validitySetter[T any] interface {
	SetStartDate(time.Time) T
	SetExpirationDate(time.Time) T
	SetValidityTimeframe(*jsonfield.ValidityTimeframe) T
	SetValidityDayOfWeek([]int) T
	SetValidityHours(*jsonfield.ValidityHours) T
	ClearStartDate() T
	ClearExpirationDate() T
	ClearValidityTimeframe() T
	ClearValidityDayOfWeek() T
	ClearValidityHours() T
}

// updateValidity sets on upd the validity rules change gives (nil leaves a
// rule as it is, a member nulls records as an explicit null clears it) and
// checks the rules current will have after the change.
func updateValidity[T any](upd validitySetter[T], current, change validity, nulls shape.Nulls) error {
	clearValidity(upd, &current, nulls)
	if change.StartDate != nil {
		current.StartDate = utcPtr(change.StartDate)
		upd.SetStartDate(*current.StartDate)
	}
	if change.ExpirationDate != nil {
		current.ExpirationDate = utcPtr(change.ExpirationDate)
		upd.SetExpirationDate(*current.ExpirationDate)
	}
	if change.Timeframe != nil {
		current.Timeframe = change.Timeframe
		upd.SetValidityTimeframe(change.Timeframe)
	}
	if change.DaysOfWeek != nil {
		current.DaysOfWeek = change.DaysOfWeek
		upd.SetValidityDayOfWeek(change.DaysOfWeek)
	}
	if change.Hours != nil {
		current.Hours = change.Hours
		upd.SetValidityHours(change.Hours)
	}
	return current.validate()
}

// clearValidity clears the validity rules the request set to null.
func clearValidity[T any](upd validitySetter[T], current *validity, nulls shape.Nulls) {
	if nulls.IsNull("start_date") {
		current.StartDate = nil
		upd.ClearStartDate()
	}
	if nulls.IsNull("expiration_date") {
		current.ExpirationDate = nil
		upd.ClearExpirationDate()
	}
	if nulls.IsNull("validity_timeframe") {
		current.Timeframe = nil
		upd.ClearValidityTimeframe()
	}
	if nulls.IsNull("validity_day_of_week") {
		current.DaysOfWeek = nil
		upd.ClearValidityDayOfWeek()
	}
	if nulls.IsNull("validity_hours") {
		current.Hours = nil
		upd.ClearValidityHours()
	}
}

package campaign

import (
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// validitySetter is what the campaign and voucher update builders share.
type validitySetter[T any] interface {
	SetStartDate(time.Time) T
	SetExpirationDate(time.Time) T
	SetValidityTimeframe(*jsonfield.ValidityTimeframe) T
	SetValidityDayOfWeek([]int) T
	SetValidityHours(*jsonfield.ValidityHours) T
}

// updateValidity sets on upd the validity rules change gives (nil leaves a
// rule as it is) and checks the rules current will have after the change.
func updateValidity[T any](upd validitySetter[T], current, change validity) error {
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

package promotion

import (
	"time"

	"github.com/promoengine/promoengine/ent"
)

// tierDates are a tier's start and expiration dates after an update that
// sent in: a date sent replaces the stored one, a date sent as null
// clears it, a date left out keeps it.
func tierDates(t *ent.PromotionTier, in *TierInput) (start, expiration *time.Time) {
	start, expiration = in.StartDate, in.ExpirationDate
	if start == nil && !in.IsNull("start_date") {
		start = t.StartDate
	}
	if expiration == nil && !in.IsNull("expiration_date") {
		expiration = t.ExpirationDate
	}
	return start, expiration
}

// clearTierFields clears the tier's optional fields an update sent as
// null (the category is cleared with the category's other changes).
func clearTierFields(upd *ent.PromotionTierUpdateOne, in *TierInput) {
	clears := map[string]func() *ent.PromotionTierUpdateOne{
		"banner": upd.ClearBanner, "start_date": upd.ClearStartDate, "expiration_date": upd.ClearExpirationDate,
		"validity_timeframe": upd.ClearValidityTimeframe, "validity_day_of_week": upd.ClearValidityDayOfWeek,
		"validity_hours": upd.ClearValidityHours,
	}
	for name, clear := range clears {
		if in.IsNull(name) {
			clear()
		}
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if in.IsNull("category") || in.IsNull("category_id") {
		upd.ClearCategoryID()
	}
}

package loyaltyv1

import "github.com/promoengine/promoengine/ent"

// clearEarningRuleFields clears the optional fields of a rule that an
// update sent as null (in.Nulls).
func clearEarningRuleFields(upd *ent.CampaignEarningRuleUpdateOne, in *EarningRuleInput) {
	clears := map[string]func() *ent.CampaignEarningRuleUpdateOne{
		"validation_rule_id": upd.ClearValidationRuleID, "start_date": upd.ClearStartDate,
		"expiration_date": upd.ClearExpirationDate, "validity_timeframe": upd.ClearValidityTimeframe,
		"validity_day_of_week": upd.ClearValidityDayOfWeek, "validity_hours": upd.ClearValidityHours,
		"pending_points": upd.ClearPendingPoints, "expiration_rules": upd.ClearExpirationRules,
	}
	for name, clear := range clears {
		if in.IsNull(name) {
			clear()
		}
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
}

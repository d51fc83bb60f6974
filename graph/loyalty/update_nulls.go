package loyalty

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// clearProgramFields clears what an update of a program sent as null.
func clearProgramFields(upd *ent.LoyaltyProgramUpdateOne, in *loyaltybase.UpdateLoyaltyProgramInput) {
	if in.IsNull("start_date") {
		upd.ClearStartDate()
	}
	if in.IsNull("end_date") {
		upd.ClearEndDate()
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
}

// nullEarningRuleMembers drops from merged (the rule as it will be) the
// optional members an update sent as null, before it is validated.
func nullEarningRuleMembers(merged *loyaltybase.CreateEarningRuleInput, in *loyaltybase.UpdateEarningRuleInput) {
	if in.IsNull("error") {
		merged.Error = nil
	}
	if in.IsNull("validity_hours") {
		merged.ValidityHours = nil
	}
	if in.IsNull("trigger_limits") {
		merged.TriggerLimits = nil
	}
	if in.IsNull("start_date") {
		merged.StartDate = nil
	}
	if in.IsNull("end_date") {
		merged.EndDate = nil
	}
}

// clearEarningRuleFields clears the stored fields an update of a rule
// sent as null (nullEarningRuleMembers dropped them from the merged rule).
func clearEarningRuleFields(upd *ent.EarningRuleUpdateOne, in *loyaltybase.UpdateEarningRuleInput) {
	clears := map[string]func() *ent.EarningRuleUpdateOne{
		"error": upd.ClearError, "validity_hours": upd.ClearValidityHours, "trigger_limits": upd.ClearTriggerLimits,
		"start_date": upd.ClearStartDate, "end_date": upd.ClearEndDate,
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

package loyalty

import (
	"fmt"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
)

// The earning rules' validity hours and trigger limits, checked when a
// rule is stored.

func validateEarningHours(h *jsonfield.EarningValidityHours) error {
	if h == nil {
		return nil
	}
	for i, d := range h.Daily {
		if !campaign.Hhmm.MatchString(d.StartTime) || !campaign.Hhmm.MatchString(d.EndTime) {
			return apperr.InvalidPayload("Property .validity_hours.daily[%d] must have start_time and end_time as HH:MM", i)
		}
		if len(d.DaysOfWeek) == 0 {
			return apperr.InvalidPayload("Property .validity_hours.daily[%d].days_of_week must have at least 1 item", i)
		}
		for _, day := range d.DaysOfWeek {
			if day < 0 || day > 6 {
				return apperr.InvalidPayload("Property .validity_hours.daily[%d].days_of_week items must be 0 to 6, got %d", i, day)
			}
		}
	}
	return nil
}

func validateTriggerLimits(t *jsonfield.TriggerLimits) error {
	if t == nil {
		return nil
	}
	if c := t.Cooldown; c != nil {
		if c.FixedCooldown == nil || c.FixedCooldown.Period == nil || c.FixedCooldown.Period.Value == nil || *c.FixedCooldown.Period.Value < 1 {
			return apperr.InvalidPayload("Property .trigger_limits.cooldown.fixed_cooldown.period.value is required and must be >= 1")
		}
		if u := c.FixedCooldown.Period.Unit; u != nil {
			maxValue, ok := cooldownUnits[*u]
			if !ok {
				return apperr.InvalidPayload("Property .trigger_limits.cooldown.fixed_cooldown.period.unit must be one of HOUR, DAY, WEEK, MONTH, YEAR, got %q", *u)
			}
			if *c.FixedCooldown.Period.Value > maxValue {
				return apperr.InvalidPayload("Property .trigger_limits.cooldown.fixed_cooldown.period.value must be at most %d for %s", maxValue, *u)
			}
		}
	}
	if f := t.Frequency; f != nil {
		for i, l := range f.Limits {
			if l.Type != "TIME_BASED" {
				return apperr.InvalidPayload("Property .trigger_limits.frequency.limits[%d].type must be TIME_BASED, got %q", i, l.Type)
			}
			if l.Period.Type != "CURRENT_PERIOD" {
				return apperr.InvalidPayload("Property .trigger_limits.frequency.limits[%d].period.type must be CURRENT_PERIOD, got %q", i, l.Period.Type)
			}
			if u, ok := l.Period.CurrentPeriod["unit"]; ok && !periodUnits[fmt.Sprint(u)] {
				return apperr.InvalidPayload("Property .trigger_limits.frequency.limits[%d].period.current_period.unit must be one of DAY, WEEK, MONTH, QUARTER, YEAR, got %v", i, u)
			}
			if l.Triggers.Max == nil || *l.Triggers.Max < 1 {
				return apperr.InvalidPayload("Property .trigger_limits.frequency.limits[%d].triggers.max is required and must be >= 1", i)
			}
		}
	}
	return nil
}

package loyalty

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// cooldownUnits are the cooldown period units and their largest value.
var cooldownUnits = map[string]int{"HOUR": 24, "DAY": 90, "WEEK": 52, "MONTH": 12, "YEAR": 1}

// periodUnits are the units of a frequency limit's current period.
var periodUnits = map[string]bool{"DAY": true, "WEEK": true, "MONTH": true, "QUARTER": true, "YEAR": true}

// AllowedByLimits reports whether rule may award the card now: the last
// award is older than the cooldown, and the awards in the current period
// (calendar period in UTC) are fewer than the frequency limit. Awards are
// the card's transactions carrying the rule's id; the card row is locked
// by the award that follows, and an event's transaction serialises one
// customer's events, so concurrent events see each other's awards.
func AllowedByLimits(ctx context.Context, rule *ent.EarningRule, cardID string, now time.Time) (bool, error) {
	limits := rule.TriggerLimits
	if limits == nil {
		return true, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return false, err
	}
	awards := func() *ent.CardTransactionQuery {
		return c.CardTransaction.Query().Where(cardtransaction.CardID(cardID), cardtransaction.EarningRuleID(rule.ID))
	}
	if cd := limits.Cooldown; cd != nil && cd.FixedCooldown != nil && cd.FixedCooldown.Period != nil && cd.FixedCooldown.Period.Value != nil {
		since := cooldownStart(now, *cd.FixedCooldown.Period)
		recent, err := awards().Where(cardtransaction.CreatedAtGT(since)).Exist(ctx)
		if err != nil {
			return false, fmt.Errorf("earning: checking cooldown: %w", err)
		}
		if recent {
			return false, nil
		}
	}
	if f := limits.Frequency; f != nil {
		for _, l := range f.Limits {
			if l.Triggers.Max == nil {
				continue
			}
			n, err := awards().Where(cardtransaction.CreatedAtGTE(periodStart(now, periodUnit(l.Period)))).Count(ctx)
			if err != nil {
				return false, fmt.Errorf("earning: checking frequency limit: %w", err)
			}
			if n >= *l.Triggers.Max {
				return false, nil
			}
		}
	}
	return true, nil
}

// cooldownStart is now minus the cooldown period (unit HOUR by default).
func cooldownStart(now time.Time, p jsonfield.CooldownPeriod) time.Time {
	v := *p.Value
	unit := "HOUR"
	if p.Unit != nil {
		unit = *p.Unit
	}
	switch unit {
	case "DAY":
		return now.AddDate(0, 0, -v)
	case "WEEK":
		return now.AddDate(0, 0, -7*v)
	case "MONTH":
		return now.AddDate(0, -v, 0)
	case "YEAR":
		return now.AddDate(-v, 0, 0)
	}
	return now.Add(-time.Duration(v) * time.Hour)
}

// periodUnit is the current period's unit (DAY by default).
func periodUnit(p jsonfield.FrequencyPeriod) string {
	if u, ok := p.CurrentPeriod["unit"].(string); ok && periodUnits[u] {
		return u
	}
	return "DAY"
}

// periodStart is the start (UTC) of the calendar period containing now;
// weeks start on Monday.
func periodStart(now time.Time, unit string) time.Time {
	now = now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch unit {
	case "WEEK":
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case "MONTH":
		return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "QUARTER":
		return time.Date(now.Year(), ((now.Month()-1)/3)*3+1, 1, 0, 0, 0, 0, time.UTC)
	case "YEAR":
		return time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return day
}

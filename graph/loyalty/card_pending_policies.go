package loyalty

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/carddefinition"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// The pending-points policies of a card definition (`pending_points`):
//   - IMMEDIATE (stored as null): earned points join the balance at once;
//   - PERIOD_BASED {period: {value, unit}}: they wait the period;
//   - FIXED_DATES {dates: [{day, month}]}: they wait for the next of the
//     calendar days (UTC), strictly after the day they were earned; a
//     29 February waits for the 28th in other years;
//   - EVENT_BASED {event_types: ["ms_…"], cancel_period}: they wait for
//     the customer's next custom event of one of the event schemas
//     (ActivatePendingOnEvent, called when the event is recorded) and are
//     canceled, not activated, when the cancel period ends (the daily job
//     reaches their day: ActivateCardPending).
// Each entry records its policy (details.type); a change of the policy
// applies to points earned afterwards.

// Pending policy types.
const (
	pendingImmediate   = "IMMEDIATE"
	pendingPeriodBased = "PERIOD_BASED"
	pendingFixedDates  = "FIXED_DATES"
	pendingEventBased  = "EVENT_BASED"
)

// eventSchemaID is the documents' pattern of an event_types entry.
var eventSchemaID = regexp.MustCompile(`^ms_[a-zA-Z0-9]+`)

// pendingPointsConfig checks a card definition's pending_points and
// returns what to store (nil for IMMEDIATE).
func pendingPointsConfig(p *jsonfield.PendingPoints) (*jsonfield.PendingPoints, error) {
	variants := map[string]bool{pendingPeriodBased: p.PeriodBased != nil, pendingFixedDates: p.FixedDates != nil,
		pendingEventBased: p.EventBased != nil}
	names := map[string]string{pendingPeriodBased: "period_based", pendingFixedDates: "fixed_dates", pendingEventBased: "event_based"}
	if p.Type != pendingImmediate && names[p.Type] == "" {
		return nil, apperr.InvalidPayload("Property .pending_points.type must be IMMEDIATE, PERIOD_BASED, FIXED_DATES or EVENT_BASED")
	}
	for typ, set := range variants {
		if set && typ != p.Type {
			return nil, apperr.InvalidPayload("Property .pending_points.%s is allowed only with type %s", names[typ], typ)
		}
	}
	if p.Type == pendingImmediate {
		return nil, nil
	}
	if !variants[p.Type] {
		return nil, apperr.InvalidPayload("Property .pending_points.%s is required with type %s", names[p.Type], p.Type)
	}
	switch p.Type {
	case pendingPeriodBased:
		if err := checkPendingPeriod("period_based.period", p.PeriodBased.Period); err != nil {
			return nil, err
		}
	case pendingFixedDates:
		if err := checkFixedDates(p.FixedDates.Dates); err != nil {
			return nil, err
		}
	case pendingEventBased:
		if err := checkEventBased(p.EventBased); err != nil {
			return nil, err
		}
	}
	return &jsonfield.PendingPoints{Type: p.Type, PeriodBased: p.PeriodBased, FixedDates: p.FixedDates, EventBased: p.EventBased}, nil
}

// checkPendingPeriod checks {value, unit}: DAY 1–90, MONTH 1–12, YEAR 1.
func checkPendingPeriod(name string, p jsonfield.PendingPeriod) error {
	most := map[string]int{"DAY": 90, "MONTH": 12, "YEAR": 1}[p.Unit]
	if most == 0 {
		return apperr.InvalidPayload("Property .pending_points.%s.unit must be DAY, MONTH or YEAR", name)
	}
	if p.Value < 1 || p.Value > most {
		return apperr.InvalidPayload("Property .pending_points.%s.value must be between 1 and %d", name, most)
	}
	return nil
}

// checkFixedDates checks 1–20 calendar days (day within the month:
// February 29, April/June/September/November 30, others 31).
func checkFixedDates(dates []jsonfield.CalendarDate) error {
	if len(dates) < 1 || len(dates) > 20 {
		return apperr.InvalidPayload("Property .pending_points.fixed_dates.dates must hold 1 to 20 dates")
	}
	for i, d := range dates {
		if d.Month < 1 || d.Month > 12 {
			return apperr.InvalidPayload("Property .pending_points.fixed_dates.dates[%d].month must be between 1 and 12", i)
		}
		most := [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[d.Month]
		if d.Day < 1 || d.Day > most {
			return apperr.InvalidPayload("Property .pending_points.fixed_dates.dates[%d].day must be between 1 and %d", i, most)
		}
	}
	return nil
}

// checkEventBased checks 1–10 unique event schema ids and the cancel
// period.
func checkEventBased(e *jsonfield.PendingEventBased) error {
	if len(e.EventTypes) < 1 || len(e.EventTypes) > 10 {
		return apperr.InvalidPayload("Property .pending_points.event_based.event_types must hold 1 to 10 event schema ids")
	}
	seen := map[string]bool{}
	for i, id := range e.EventTypes {
		if !eventSchemaID.MatchString(id) || seen[id] {
			return apperr.InvalidPayload("Property .pending_points.event_based.event_types[%d] must be a unique event schema id (ms_…)", i)
		}
		seen[id] = true
	}
	return checkPendingPeriod("event_based.cancel_period", e.CancelPeriod)
}

// pendingPolicy is the pending-points policy of crd's definition (nil:
// IMMEDIATE).
func pendingPolicy(ctx context.Context, crd *ent.Card) (*jsonfield.PendingPoints, error) {
	if crd.CardDefinitionID == nil {
		return nil, nil
	}
	d, err := loyaltybase.CardDefinition(ctx, *crd.CardDefinitionID)
	if err != nil || d.PendingPoints == nil || d.PendingPoints.Type == pendingImmediate {
		return nil, err
	}
	return d.PendingPoints, nil
}

// pendingPolicyType names the policy an entry of crd waits under.
func pendingPolicyType(ctx context.Context, crd *ent.Card) string {
	if p, err := pendingPolicy(ctx, crd); err == nil && p != nil {
		return p.Type
	}
	return pendingPeriodBased
}

// pendingUntil is the day an award to crd becomes points (zero: now, no
// pending period); for EVENT_BASED, the day it is canceled.
func pendingUntil(ctx context.Context, crd *ent.Card, now time.Time) (time.Time, error) {
	p, err := pendingPolicy(ctx, crd)
	if err != nil || p == nil {
		return time.Time{}, err
	}
	switch {
	case p.Type == pendingPeriodBased && p.PeriodBased != nil:
		return AddPeriod(now, p.PeriodBased.Period), nil
	case p.Type == pendingFixedDates && p.FixedDates != nil:
		return NextFixedDate(now, p.FixedDates.Dates), nil
	case p.Type == pendingEventBased && p.EventBased != nil:
		return AddPeriod(now, p.EventBased.CancelPeriod), nil
	}
	return time.Time{}, nil
}

// AddPeriod is now plus value units.
func AddPeriod(now time.Time, p jsonfield.PendingPeriod) time.Time {
	switch p.Unit {
	case "DAY":
		return now.AddDate(0, 0, p.Value)
	case "MONTH":
		return now.AddDate(0, p.Value, 0)
	}
	return now.AddDate(p.Value, 0, 0)
}

// NextFixedDate is the first of the calendar days (UTC midnight) after
// now's day; February 29 is the 28th in other years.
func NextFixedDate(now time.Time, dates []jsonfield.CalendarDate) time.Time {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	var best time.Time
	for _, d := range dates {
		for year := now.Year(); year <= now.Year()+1; year++ {
			day := d.Day
			if last := time.Date(year, time.Month(d.Month)+1, 0, 0, 0, 0, 0, time.UTC).Day(); day > last {
				day = last
			}
			t := time.Date(year, time.Month(d.Month), day, 0, 0, 0, 0, time.UTC)
			if t.After(today) {
				if best.IsZero() || t.Before(best) {
					best = t
				}
				break
			}
		}
	}
	return best
}

// ActivatePendingOnEvent activates the customer's PENDING entries that
// wait (EVENT_BASED) for an event of schemaID: each through the guarded
// move of activateCardPending, so an entry is booked once. It runs when
// the event is recorded, before the event's own earning.
func ActivatePendingOnEvent(ctx context.Context, customerID, schemaID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	defs, err := c.CardDefinition.Query().Where(carddefinition.PendingPointsNotNil()).All(ctx)
	if err != nil {
		return fmt.Errorf("reading event-based card definitions: %w", err)
	}
	var waiting []string
	for _, d := range defs {
		if d.PendingPoints == nil { // a JSON null: IMMEDIATE
			continue
		}
		if e := d.PendingPoints.EventBased; d.PendingPoints.Type == pendingEventBased && e != nil {
			for _, id := range e.EventTypes {
				if id == schemaID {
					waiting = append(waiting, d.ID)
					break
				}
			}
		}
	}
	if len(waiting) == 0 {
		return nil
	}
	cards, err := c.Card.Query().Where(card.CardDefinitionIDIn(waiting...),
		card.HasMemberWith(loyaltymember.CustomerID(customerID))).IDs(ctx)
	if err != nil || len(cards) == 0 {
		return err
	}
	entries, err := c.PointsBucket.Query().Where(pointsbucket.CardIDIn(cards...), pointsbucket.StatusEQ(pointsbucket.StatusPENDING)).
		Order(pointsbucket.ByID()).All(ctx)
	if err != nil {
		return fmt.Errorf("reading pending points: %w", err)
	}
	for _, b := range entries {
		if b.Details["type"] != pendingEventBased {
			continue
		}
		if _, _, err := activateCardPending(ctx, c, b); err != nil {
			return err
		}
	}
	return nil
}

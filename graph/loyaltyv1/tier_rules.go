package loyaltyv1

import (
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
)

// A program's loyalty_tiers_expiration, parsed (reference §5,
// loyalties.json LoyaltyTiersExpirationAll):
//   - qualification_type POINTS_IN_PERIOD with a qualification_period
//     places a card by the points earned in a calendar period; BALANCE (and
//     anything else) by the balance;
//   - start_date.type NEXT_PERIOD makes a period's points count from the
//     next period on (IMMEDIATE: at once);
//   - expiration_date.type: END_OF_PERIOD (the tier ends with the period
//     it is valid in), END_OF_NEXT_PERIOD (one period later), BALANCE_DROP
//     (as soon as what qualifies drops: no grace), CUSTOM (the tier is kept
//     for `extend` after the drop);
//   - expiration_date.extend (ISO 8601, e.g. P3M, P1D, P1Y2M10DT2H) lengthens
//     every expiry but BALANCE_DROP's, and expiration_date.rounding
//     {type MONTH|QUARTER|HALF_YEAR|YEAR|CUSTOM, strategy START|END, unit
//     MONTH, value 0–11 for CUSTOM (the month a yearly period ends in)}
//     moves the extended date to the start or end of its calendar period.

// maxExtendMonths bounds extend (10 years), so the look-back of the tier
// computation is bounded too.
const maxExtendMonths = 120

// tierRules are a program's parsed tier settings.
type tierRules struct {
	// months is the qualification period's length when the program
	// places cards by points earned in a period (POINTS_IN_PERIOD), 0 when
	// it places them by balance.
	months int
	// shift is 1 with start_date NEXT_PERIOD (a period's points count
	// from the next period on), 0 otherwise.
	shift   int
	expType string
	extend  isoPeriod
	round   *tierRounding
}

// parseTierRules reads stored settings; what is malformed (stored before
// they were checked) counts as absent.
func parseTierRules(settings map[string]any) tierRules {
	var r tierRules
	if settings["qualification_type"] == "POINTS_IN_PERIOD" {
		r.months = periodMonths(settings["qualification_period"])
	}
	if sd, _ := settings["start_date"].(map[string]any); sd != nil && sd["type"] == "NEXT_PERIOD" && r.months > 0 {
		r.shift = 1
	}
	if exp, _ := settings["expiration_date"].(map[string]any); exp != nil {
		r.expType, _ = exp["type"].(string)
		if s, ok := exp["extend"].(string); ok {
			r.extend, _ = parseISOPeriod(s)
		}
		r.round, _ = parseRounding(exp["rounding"])
	}
	return r
}

// checkTierSettings refuses loyalty_tiers_expiration settings the tier
// computation cannot apply (400 invalid_payload).
func checkTierSettings(settings map[string]any) error {
	if settings == nil {
		return nil
	}
	bad := func(format string, args ...any) error {
		return apperr.InvalidPayload("Property .loyalty_tiers_expiration."+format, args...)
	}
	switch settings["qualification_type"] {
	case nil, "BALANCE":
	case "POINTS_IN_PERIOD":
		if periodMonths(settings["qualification_period"]) == 0 {
			return bad("qualification_period must be one of MONTH, QUARTER, HALF_YEAR, YEAR")
		}
	default:
		return bad("qualification_type must be one of BALANCE, POINTS_IN_PERIOD")
	}
	if sd, ok := settings["start_date"]; ok && sd != nil {
		m, _ := sd.(map[string]any)
		if m == nil || (m["type"] != "IMMEDIATE" && m["type"] != "NEXT_PERIOD") {
			return bad("start_date.type must be one of IMMEDIATE, NEXT_PERIOD")
		}
	}
	exp, ok := settings["expiration_date"]
	if !ok || exp == nil {
		return nil
	}
	m, _ := exp.(map[string]any)
	if m == nil {
		return bad("expiration_date must be an object")
	}
	switch m["type"] {
	case "END_OF_PERIOD", "END_OF_NEXT_PERIOD", "BALANCE_DROP", "CUSTOM":
	default:
		return bad("expiration_date.type must be one of END_OF_PERIOD, END_OF_NEXT_PERIOD, BALANCE_DROP, CUSTOM")
	}
	if e, ok := m["extend"]; ok && e != nil {
		s, _ := e.(string)
		if _, err := parseISOPeriod(s); err != nil {
			return bad("expiration_date.extend %v", err)
		}
	}
	if _, err := parseRounding(m["rounding"]); err != nil {
		return bad("expiration_date.rounding %v", err)
	}
	return nil
}

// isoPeriod is an ISO 8601 duration (PnYnMnWnDTnHnMnS).
type isoPeriod struct {
	years, months, days int
	clock               time.Duration
}

var isoPeriodPattern = regexp.MustCompile(`^P(?:(\d{1,3})Y)?(?:(\d{1,4})M)?(?:(\d{1,4})W)?(?:(\d{1,5})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,8})M)?(?:(\d{1,9})S)?)?$`)

// parseISOPeriod reads an ISO 8601 duration of at most 10 years.
func parseISOPeriod(s string) (isoPeriod, error) {
	m := isoPeriodPattern.FindStringSubmatch(s)
	if m == nil || s == "P" || s[len(s)-1] == 'T' {
		return isoPeriod{}, fmt.Errorf("must be an ISO 8601 duration such as P3M or P1D, got %q", s)
	}
	n := make([]int, 8)
	for i := 1; i < len(m); i++ {
		if m[i] != "" {
			n[i], _ = strconv.Atoi(m[i])
		}
	}
	p := isoPeriod{years: n[1], months: n[2], days: n[3]*7 + n[4],
		clock: time.Duration(n[5])*time.Hour + time.Duration(n[6])*time.Minute + time.Duration(n[7])*time.Second}
	if p.years*12+p.months+(p.days+int(p.clock/(24*time.Hour)))/31 > maxExtendMonths {
		return isoPeriod{}, fmt.Errorf("must be at most 10 years, got %q", s)
	}
	return p, nil
}

func (p isoPeriod) add(t time.Time) time.Time {
	return t.AddDate(p.years, p.months, p.days).Add(p.clock)
}
func (p isoPeriod) sub(t time.Time) time.Time {
	return t.Add(-p.clock).AddDate(-p.years, -p.months, -p.days)
}

// tierRounding moves a date to the start or the end of its calendar
// period of months months, the last of which ends in month endMonth (1–12).
type tierRounding struct {
	months, endMonth int
	start            bool
}

// parseRounding reads expiration_date.rounding (nil: none).
func parseRounding(v any) (*tierRounding, error) {
	if v == nil {
		return nil, nil
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return nil, fmt.Errorf("must be an object")
	}
	r := &tierRounding{endMonth: 12}
	switch m["type"] {
	case "MONTH":
		r.months = 1
	case "QUARTER":
		r.months = 3
	case "HALF_YEAR":
		r.months = 6
	case "YEAR":
		r.months = 12
	case "CUSTOM":
		f, ok := m["value"].(float64)
		if !ok || f != float64(int(f)) || f < 0 || f > 11 {
			return nil, fmt.Errorf("value must be a month from 0 (January) to 11 (December) with type CUSTOM")
		}
		r.months, r.endMonth = 12, int(f)+1
	default:
		return nil, fmt.Errorf("type must be one of MONTH, QUARTER, HALF_YEAR, YEAR, CUSTOM")
	}
	switch m["strategy"] {
	case nil, "END":
	case "START":
		r.start = true
	default:
		return nil, fmt.Errorf("strategy must be one of START, END")
	}
	if u, ok := m["unit"]; ok && u != nil && u != "MONTH" {
		return nil, fmt.Errorf("unit must be MONTH")
	}
	return r, nil
}

// periodStart is the start of the rounding period that holds t.
func (r *tierRounding) periodStart(t time.Time) time.Time {
	t = t.UTC()
	idx := t.Year()*12 + int(t.Month()) - 1
	off := r.endMonth % r.months // the months (0-based, mod months) periods start in
	s := idx - ((idx-off)%r.months+r.months)%r.months
	return time.Date(s/12, time.Month(s%12+1), 1, 0, 0, 0, 0, time.UTC)
}

// apply rounds t: the first instant of its period (START) or the last (END).
func (r *tierRounding) apply(t time.Time) time.Time {
	s := r.periodStart(t)
	if r.start {
		return s
	}
	return s.AddDate(0, r.months, 0).Add(-time.Millisecond)
}

// until is the last instant a tier is held when what qualified for it
// stopped qualifying at the instant last (inclusive): last itself for
// BALANCE_DROP, else last extended and rounded.
func (r tierRules) until(last time.Time) time.Time {
	if r.expType == "BALANCE_DROP" {
		return last
	}
	t := r.extend.add(last)
	if r.round != nil {
		t = r.round.apply(t)
	}
	return t
}

// windowStart is the earliest instant a qualification may have stopped
// and still hold a tier at at (the inverse of until): what qualified at
// any instant of [windowStart(at), at] is held at at.
func (r tierRules) windowStart(at time.Time) time.Time {
	if r.expType == "BALANCE_DROP" {
		return at
	}
	edge := at
	if r.round != nil {
		edge = r.round.periodStart(at)
		if r.round.start && edge.Before(at) {
			edge = edge.AddDate(0, r.round.months, 0)
		}
	}
	return r.extend.sub(edge)
}

// byBalanceWindow says whether the program keeps a balance-placed tier
// after the balance drops (expiration_date CUSTOM).
func (r tierRules) byBalanceWindow() bool { return r.months == 0 && r.expType == "CUSTOM" }

// clockBound says whether a card's tier can change with the clock alone
// (the daily job settles such programs' cards).
func (r tierRules) clockBound() bool { return r.months > 0 || r.byBalanceWindow() }

// periodEnds is how many qualification periods after its own a period's
// points stop counting (the tier's natural end): one with END_OF_PERIOD
// (and the others), two with END_OF_NEXT_PERIOD — from the period they
// start counting in.
func (r tierRules) periodEnds() int {
	if r.expType == "END_OF_NEXT_PERIOD" {
		return r.shift + 2
	}
	return r.shift + 1
}

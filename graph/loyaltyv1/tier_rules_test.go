package loyaltyv1

import (
	"testing"
	"time"
)

// TestTierRulesRoundAndExtend: ISO 8601 extensions, the rounding periods
// (CUSTOM: yearly periods ending with the chosen month), until, and
// windowStart as until's inverse: an instant qualifies at `at` exactly when
// its until is not before `at`.
func TestTierRulesRoundAndExtend(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		want isoPeriod
	}{
		{"P3M", true, isoPeriod{months: 3}},
		{"P1D", true, isoPeriod{days: 1}},
		{"P0D", true, isoPeriod{}},
		{"P1Y2M3W4DT5H6M7S", true, isoPeriod{years: 1, months: 2, days: 25, clock: 5*time.Hour + 6*time.Minute + 7*time.Second}},
		{"P", false, isoPeriod{}}, {"PT", false, isoPeriod{}}, {"3M", false, isoPeriod{}}, {"P11Y", false, isoPeriod{}},
		{"P-1M", false, isoPeriod{}},
	} {
		got, err := parseISOPeriod(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseISOPeriod(%q) = %+v, %v", c.in, got, err)
		}
	}
	d := func(s string) time.Time {
		v, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		rounding map[string]any
		at, want string
	}{
		{map[string]any{"type": "MONTH"}, "2026-02-10 12:00:00", "2026-02-28 23:59:59.999"},
		{map[string]any{"type": "QUARTER"}, "2026-05-10 00:00:00", "2026-06-30 23:59:59.999"},
		{map[string]any{"type": "HALF_YEAR", "strategy": "START"}, "2026-11-10 00:00:00", "2026-07-01 00:00:00"},
		{map[string]any{"type": "YEAR"}, "2026-01-01 00:00:00", "2026-12-31 23:59:59.999"},
		{map[string]any{"type": "CUSTOM", "value": 2.0}, "2026-04-01 00:00:00", "2027-03-31 23:59:59.999"}, // March
		{map[string]any{"type": "CUSTOM", "value": 2.0}, "2026-03-15 00:00:00", "2026-03-31 23:59:59.999"},
		{map[string]any{"type": "CUSTOM", "value": 2.0, "strategy": "START"}, "2026-03-15 00:00:00", "2025-04-01 00:00:00"},
	} {
		r, err := parseRounding(c.rounding)
		if err != nil {
			t.Fatalf("%v: %v", c.rounding, err)
		}
		if got := r.apply(d(c.at)); !got.Equal(d(c.want)) {
			t.Errorf("%v at %s: %s, want %s", c.rounding, c.at, got, c.want)
		}
	}
	for _, bad := range []map[string]any{{"type": "WEEK"}, {"type": "CUSTOM"}, {"type": "CUSTOM", "value": 12.0},
		{"type": "MONTH", "strategy": "MIDDLE"}, {"type": "MONTH", "unit": "DAY"}} {
		if _, err := parseRounding(bad); err == nil {
			t.Errorf("rounding %v accepted", bad)
		}
	}
	at := d("2026-06-15 10:00:00")
	for _, settings := range []map[string]any{
		{"type": "CUSTOM", "extend": "P1M"},
		{"type": "CUSTOM", "extend": "P1M", "rounding": map[string]any{"type": "MONTH"}},
		{"type": "CUSTOM", "extend": "P2M10D", "rounding": map[string]any{"type": "QUARTER", "strategy": "START"}},
		{"type": "CUSTOM", "extend": "P10D", "rounding": map[string]any{"type": "CUSTOM", "value": 4.0}},
	} {
		r := parseTierRules(map[string]any{"qualification_type": "BALANCE", "expiration_date": settings})
		w := r.windowStart(at)
		for _, probe := range []time.Duration{-48 * time.Hour, -time.Hour, -time.Millisecond, 0, time.Millisecond, time.Hour} {
			last := w.Add(probe)
			if holds := !r.until(last).Before(at); holds != (probe >= 0) {
				t.Errorf("%v: an instant %v from the window's start (%s) holds %v, until %s", settings, probe, w, holds, r.until(last))
			}
		}
	}
}

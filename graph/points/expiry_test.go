package points

import (
	"testing"
	"time"
)

func TestLastDayByRules(t *testing.T) {
	on := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	cases := []struct {
		name   string
		rules  map[string]any
		earned string
		want   string
	}{
		{"same day next months", map[string]any{"period_type": "MONTH", "period_value": 2.0}, "2026-03-15", "2026-05-15"},
		{"zero months keeps the day", map[string]any{"period_type": "MONTH", "period_value": 0.0}, "2026-03-15", "2026-03-15"},
		{"short month clamps", map[string]any{"period_type": "MONTH", "period_value": 1.0}, "2026-01-31", "2026-02-28"},
		{"end of month", map[string]any{"period_type": "MONTH", "period_value": 1.0, "rounding_type": "END_OF_MONTH"}, "2026-01-10", "2026-02-28"},
		{"end of quarter", map[string]any{"period_type": "MONTH", "period_value": 1.0, "rounding_type": "END_OF_QUARTER"}, "2026-01-10", "2026-03-31"},
		{"end of half year", map[string]any{"period_type": "MONTH", "period_value": 6.0, "rounding_type": "END_OF_HALF_YEAR"}, "2026-01-10", "2026-12-31"},
		{"end of year", map[string]any{"period_type": "MONTH", "period_value": 1.0, "rounding_type": "END_OF_YEAR"}, "2026-11-10", "2026-12-31"},
		{"particular month later in the year", map[string]any{"period_type": "MONTH", "period_value": 1.0, "rounding_type": "PARTICULAR_MONTH", "rounding_value": 9.0}, "2026-03-10", "2026-09-30"},
		{"particular month next year", map[string]any{"period_type": "MONTH", "period_value": 1.0, "rounding_type": "PARTICULAR_MONTH", "rounding_value": 2.0}, "2026-03-10", "2027-02-28"},
		{"days", map[string]any{"period_type": "DAY", "period_value": 3.0}, "2026-02-27", "2026-03-02"},
		{"days rounded to the quarter", map[string]any{"period_type": "DAY", "period_value": 3.0, "rounding_type": "END_OF_QUARTER"}, "2026-02-27", "2026-03-31"},
		{"fixed day this year", map[string]any{"period_type": "FIXED_DAY_OF_YEAR", "fixed_month": 12.0, "fixed_day": 31.0}, "2026-03-10", "2026-12-31"},
		{"fixed day passed goes to next year", map[string]any{"period_type": "FIXED_DAY_OF_YEAR", "fixed_month": 1.0, "fixed_day": 15.0}, "2026-03-10", "2027-01-15"},
	}
	for _, c := range cases {
		got, err := LastDayByRules(c.rules, on(c.earned).Add(15*time.Hour))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Format(time.DateOnly) != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got.Format(time.DateOnly), c.want)
		}
	}
	for _, bad := range []map[string]any{{"period_type": "WEEK"}, {"period_type": "MONTH"}, {"period_type": "MONTH", "period_value": 1.5},
		{"period_type": "FIXED_DAY_OF_YEAR", "fixed_month": 13.0, "fixed_day": 1.0}} {
		if _, err := LastDayByRules(bad, on("2026-01-01")); err == nil {
			t.Errorf("rules %v: no error", bad)
		}
	}
}

package loyalty

import (
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

func TestPeriodStart(t *testing.T) {
	now := time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC) // a Sunday
	cases := map[string]time.Time{
		"DAY":     time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
		"WEEK":    time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), // Monday
		"MONTH":   time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"QUARTER": time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC),
		"YEAR":    time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for unit, want := range cases {
		if got := periodStart(now, unit); !got.Equal(want) {
			t.Errorf("periodStart(%s) = %v, want %v", unit, got, want)
		}
	}
}

func TestCooldownStart(t *testing.T) {
	now := time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC)
	two := 2
	unit := func(u string) *string { return &u }
	cases := []struct {
		p    jsonfield.CooldownPeriod
		want time.Time
	}{
		{jsonfield.CooldownPeriod{Value: &two}, now.Add(-2 * time.Hour)},
		{jsonfield.CooldownPeriod{Value: &two, Unit: unit("DAY")}, now.AddDate(0, 0, -2)},
		{jsonfield.CooldownPeriod{Value: &two, Unit: unit("WEEK")}, now.AddDate(0, 0, -14)},
		{jsonfield.CooldownPeriod{Value: &two, Unit: unit("MONTH")}, now.AddDate(0, -2, 0)},
	}
	for _, tc := range cases {
		if got := cooldownStart(now, tc.p); !got.Equal(tc.want) {
			t.Errorf("cooldownStart(%v %v) = %v, want %v", *tc.p.Value, tc.p.Unit, got, tc.want)
		}
	}
}

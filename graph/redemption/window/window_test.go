package window

import (
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

func TestWindowCheck(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ptr := func(s string) *time.Time { v := at(s); return &v }
	// 2024-01-01 is a Monday.
	cases := []struct {
		name string
		w    Window
		now  string
		want string
	}{
		{"no rules", Window{}, "2024-01-01T10:00:00Z", ""},
		{"before start", Window{Start: ptr("2024-01-02T00:00:00Z")}, "2024-01-01T10:00:00Z", KeyNotActiveYet},
		{"after expiration", Window{Expiration: ptr("2023-12-31T00:00:00Z")}, "2024-01-01T10:00:00Z", KeyExpired},
		{"inside dates", Window{Start: ptr("2023-12-31T00:00:00Z"), Expiration: ptr("2024-01-02T00:00:00Z")}, "2024-01-01T10:00:00Z", ""},
		{"timeframe on", Window{Start: ptr("2024-01-01T00:00:00Z"), Timeframe: &jsonfield.ValidityTimeframe{Duration: "PT1H", Interval: "P1D"}}, "2024-01-03T00:30:00Z", ""},
		{"timeframe off", Window{Start: ptr("2024-01-01T00:00:00Z"), Timeframe: &jsonfield.ValidityTimeframe{Duration: "PT1H", Interval: "P1D"}}, "2024-01-03T01:30:00Z", KeyNotActiveNow},
		{"day of week on", Window{DaysOfWeek: []int{1, 2}}, "2024-01-01T10:00:00Z", ""},
		{"day of week off", Window{DaysOfWeek: []int{0, 6}}, "2024-01-01T10:00:00Z", KeyNotActiveNow},
		{"hours on", Window{Hours: &jsonfield.ValidityHours{Daily: []jsonfield.DailyValidity{{StartTime: "09:00", ExpirationTime: "17:00", DaysOfWeek: []int{1}}}}}, "2024-01-01T10:00:00Z", ""},
		{"hours off (time)", Window{Hours: &jsonfield.ValidityHours{Daily: []jsonfield.DailyValidity{{StartTime: "09:00", ExpirationTime: "10:00", DaysOfWeek: []int{1}}}}}, "2024-01-01T10:00:00Z", KeyNotActiveNow},
		{"hours off (day)", Window{Hours: &jsonfield.ValidityHours{Daily: []jsonfield.DailyValidity{{StartTime: "09:00", ExpirationTime: "17:00", DaysOfWeek: []int{2}}}}}, "2024-01-01T10:00:00Z", KeyNotActiveNow},
	}
	for _, c := range cases {
		if got := c.w.Check(at(c.now)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

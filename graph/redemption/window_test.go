package redemption

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
		w    window
		now  string
		want string
	}{
		{"no rules", window{}, "2024-01-01T10:00:00Z", ""},
		{"before start", window{start: ptr("2024-01-02T00:00:00Z")}, "2024-01-01T10:00:00Z", keyNotActiveYet},
		{"after expiration", window{expiration: ptr("2023-12-31T00:00:00Z")}, "2024-01-01T10:00:00Z", keyExpired},
		{"inside dates", window{start: ptr("2023-12-31T00:00:00Z"), expiration: ptr("2024-01-02T00:00:00Z")}, "2024-01-01T10:00:00Z", ""},
		{"timeframe on", window{start: ptr("2024-01-01T00:00:00Z"), timeframe: &jsonfield.ValidityTimeframe{Duration: "PT1H", Interval: "P1D"}}, "2024-01-03T00:30:00Z", ""},
		{"timeframe off", window{start: ptr("2024-01-01T00:00:00Z"), timeframe: &jsonfield.ValidityTimeframe{Duration: "PT1H", Interval: "P1D"}}, "2024-01-03T01:30:00Z", keyNotActiveNow},
		{"day of week on", window{daysOfWeek: []int{1, 2}}, "2024-01-01T10:00:00Z", ""},
		{"day of week off", window{daysOfWeek: []int{0, 6}}, "2024-01-01T10:00:00Z", keyNotActiveNow},
		{"hours on", window{hours: &jsonfield.ValidityHours{Daily: []jsonfield.DailyValidity{{StartTime: "09:00", ExpirationTime: "17:00", DaysOfWeek: []int{1}}}}}, "2024-01-01T10:00:00Z", ""},
		{"hours off (time)", window{hours: &jsonfield.ValidityHours{Daily: []jsonfield.DailyValidity{{StartTime: "09:00", ExpirationTime: "10:00", DaysOfWeek: []int{1}}}}}, "2024-01-01T10:00:00Z", keyNotActiveNow},
		{"hours off (day)", window{hours: &jsonfield.ValidityHours{Daily: []jsonfield.DailyValidity{{StartTime: "09:00", ExpirationTime: "17:00", DaysOfWeek: []int{2}}}}}, "2024-01-01T10:00:00Z", keyNotActiveNow},
	}
	for _, c := range cases {
		if got := c.w.check(at(c.now)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

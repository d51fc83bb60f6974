package customer

import (
	"testing"
	"time"
)

// TestActivityCursorNeverRepeatsItsOwnRow: paging by starting_after_id
// continues strictly after the named activity in both orders, ties on
// created_at broken by ID — the cursor's own row (the customer.created
// activity is filtered in Go, not SQL) is not shown again.
func TestActivityCursorNeverRepeatsItsOwnRow(t *testing.T) {
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, desc := range []bool{true, false} {
		f := activityFilter{desc: desc, afterTime: &at, afterID: "cust_m"}
		cases := []struct {
			act  CustomerActivity
			want bool
		}{
			{CustomerActivity{ID: "cust_m", CreatedAt: at}, false},
			// Descending lists continue with smaller IDs on a tie.
			{CustomerActivity{ID: "cust_a", CreatedAt: at}, desc},
			{CustomerActivity{ID: "cust_z", CreatedAt: at}, !desc},
			{CustomerActivity{ID: "evcus_a", CreatedAt: at.Add(-time.Millisecond)}, desc},
			{CustomerActivity{ID: "evcus_z", CreatedAt: at.Add(time.Millisecond)}, !desc},
		}
		for _, c := range cases {
			if got := f.isAfter(&c.act); got != c.want {
				t.Errorf("desc=%v: isAfter(%s at %v) = %v, want %v", desc, c.act.ID, c.act.CreatedAt, got, c.want)
			}
		}
	}
}

package page

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// TestProjectTotalRemembersTheCap: a project's whole list counted at the
// cap is not counted again (for AtCapFor), below the cap it is counted on
// every page, per project and table; ForgetProjectTotals (a delete) makes
// the next page count.
func TestProjectTotalRemembersTheCap(t *testing.T) {
	ForgetAllProjectTotals()
	a := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: "proj_a"})
	b := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: "proj_b"})
	counts := 0
	counter := func(n int) func(context.Context) (int, error) {
		return func(context.Context) (int, error) { counts++; return n, nil }
	}
	total := func(ctx context.Context, table string, n int) int {
		t.Helper()
		got, err := ProjectTotal(ctx, table, 100, counter(n))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := total(a, "orders", 99); got != 99 || counts != 1 {
		t.Fatalf("below the cap: %d after %d counts", got, counts)
	}
	if got := total(a, "orders", 98); got != 98 || counts != 2 {
		t.Fatalf("below the cap, again: %d after %d counts (want a count every time)", got, counts)
	}
	if got := total(a, "orders", 100); got != 100 || counts != 3 {
		t.Fatalf("at the cap: %d after %d counts", got, counts)
	}
	if got := total(a, "orders", 7); got != 100 || counts != 3 {
		t.Fatalf("at the cap remembered: %d after %d counts (want 100 without a count)", got, counts)
	}
	if got := total(b, "orders", 5); got != 5 || counts != 4 {
		t.Fatalf("another project: %d after %d counts", got, counts)
	}
	if got := total(a, "customers", 6); got != 6 || counts != 5 {
		t.Fatalf("another table: %d after %d counts", got, counts)
	}
	ForgetProjectTotals(a, "orders")
	if got := total(a, "orders", 42); got != 42 || counts != 6 {
		t.Fatalf("after a delete: %d after %d counts", got, counts)
	}
	if got := total(context.Background(), "orders", 100); got != 100 || counts != 7 {
		t.Fatalf("without a project: %d after %d counts", got, counts)
	}
	if got := total(context.Background(), "orders", 3); got != 3 || counts != 8 {
		t.Fatalf("without a project, nothing remembered: %d after %d counts", got, counts)
	}
}

// TestPageTotalFromAShortPage: a page shorter than the limit proves the
// total (offset + rows) unless it is an empty page past the first; a full
// page, or an empty one past the end, counts.
func TestPageTotalFromAShortPage(t *testing.T) {
	for _, c := range []struct{ offset, limit, rows, want int }{
		{0, 50, 7, 7}, {0, 50, 0, 0}, {100, 50, 3, 103}, {0, 50, 50, 999}, {100, 50, 0, 999}, {100, 50, 50, 999},
	} {
		got, err := PageTotal(context.Background(), c.offset, c.limit, c.rows, func(context.Context) (int, error) { return 999, nil })
		if err != nil || got != c.want {
			t.Errorf("offset %d, limit %d, %d rows: total %d (%v), want %d", c.offset, c.limit, c.rows, got, err, c.want)
		}
	}
}

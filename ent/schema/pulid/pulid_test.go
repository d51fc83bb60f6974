package pulid

import (
	"fmt"
	"regexp"
	"testing"
	"time"
)

func TestNewIsPrefixedRandomAlphanumeric(t *testing.T) {
	re := regexp.MustCompile(`^camp_[0-9A-Za-z]{24}$`)
	seen := map[string]bool{}
	counts := map[rune]int{}
	for range 2000 {
		id := New("camp_", 24)
		if !re.MatchString(id) {
			t.Fatalf("malformed id %q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
		for _, r := range id[5:] {
			counts[r]++
		}
	}
	// 48,000 draws over 62 symbols: every symbol appears, none dominates.
	if len(counts) != 62 {
		t.Errorf("only %d distinct symbols drawn", len(counts))
	}
	for r, n := range counts {
		if n < 500 || n > 1100 {
			t.Errorf("symbol %q drawn %d times (expected ~774)", r, n)
		}
	}
}

func TestUUIDShape(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if u := UUID(); !re.MatchString(u) {
		t.Errorf("UUID() = %q", u)
	}
	if Hex(9) == Hex(9) || len(Hex(9)) != 18 {
		t.Error("Hex is not random or has the wrong length")
	}
}

// TestOrderedClockIsSprintf: orderedClock writes what fmt's %014x writes.
func TestOrderedClockIsSprintf(t *testing.T) {
	for _, m := range []int64{0, 1, 15, 16, 1 << 52, 1<<56 - 1, 1 << 56, 1<<63 - 1, -1, -1 << 63, time.Now().UnixMicro()} {
		if got, want := orderedClock(m), fmt.Sprintf("%014x", m); got != want {
			t.Errorf("%d: %q, want %q", m, got, want)
		}
	}
}

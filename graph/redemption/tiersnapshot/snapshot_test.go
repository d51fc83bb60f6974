package tiersnapshot

import (
	"fmt"
	"testing"
)

// TestTierSnapshotsEviction: the cache keeps at most Projects entries and
// TotalTiers tiers, dropping the least recently used project first.
func TestTierSnapshotsEviction(t *testing.T) {
	c := NewTierSnapshots(TierSnapshotLimits{Projects: 2, Tiers: 10, TotalTiers: 5})
	snap := func(n int) *TierSnapshot { return &TierSnapshot{version: 1, tiers: make([]*SnapshotTier, n)} }
	has := func(p string) bool { _, ok := c.byID[p]; return ok }
	c.store(c.entry("a"), snap(2))
	c.store(c.entry("b"), snap(2))
	c.entry("a") // a used more recently than b
	c.store(c.entry("c"), snap(1))
	if has("b") || !has("a") || !has("c") || c.total != 3 {
		t.Fatalf("after a third project: a %v b %v c %v, %d tiers", has("a"), has("b"), has("c"), c.total)
	}
	c.store(c.entry("a"), snap(5)) // a grows past TotalTiers with c: c goes
	if has("c") || !has("a") || c.total != 5 {
		t.Fatalf("over TotalTiers: a %v c %v, %d tiers", has("a"), has("c"), c.total)
	}
	if s := c.fresh(c.entry("a"), 1); s == nil || len(s.tiers) != 5 {
		t.Fatalf("a's snapshot: %v", s)
	}
	if s := c.fresh(c.entry("a"), 2); s != nil {
		t.Fatalf("a snapshot of another version is fresh")
	}
	for i := range 100 {
		c.store(c.entry(fmt.Sprint("p", i)), snap(1))
	}
	if c.lru.Len() != 2 || len(c.byID) != 2 || c.total != 2 {
		t.Fatalf("%d entries, %d tiers", c.lru.Len(), c.total)
	}
}

package store

import (
	"context"
	"testing"
	"time"
)

func TestTTLCacheServesFreshEntriesOnly(t *testing.T) {
	c := NewTTLCache[int](5*time.Second, 10)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, ok := c.Get("p", t0); ok {
		t.Fatal("an empty cache served an entry")
	}
	c.Put("p", 7, t0)
	if v, ok := c.Get("p", t0.Add(4*time.Second)); !ok || v != 7 {
		t.Fatalf("fresh entry: got %d, %v; want 7, true", v, ok)
	}
	if _, ok := c.Get("p", t0.Add(5*time.Second)); ok {
		t.Fatal("an entry was served at its expiry time")
	}
	c.Put("p", 8, t0)
	c.ForgetAtCommit(context.Background(), "p") // no transaction: forgotten at once
	if _, ok := c.Get("p", t0); ok {
		t.Fatal("a forgotten entry was served")
	}
}

func TestTTLCacheStaysWithinItsBound(t *testing.T) {
	c := NewTTLCache[int](time.Minute, 3)
	now := time.Now()
	for i, k := range []string{"a", "b", "c", "d"} {
		c.Put(k, i, now)
	}
	if len(c.entries) > 3 {
		t.Fatalf("cache holds %d entries, bound is 3", len(c.entries))
	}
	if v, ok := c.Get("d", now); !ok || v != 3 {
		t.Fatalf("the newest entry is missing after the cache was emptied: %d, %v", v, ok)
	}
}

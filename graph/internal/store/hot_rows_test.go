package store

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
)

// TestRowGate: HotRowWaiters requests per key pass; the next waits until
// one leaves, or answers 409 resource_locked at its deadline; other keys
// are not held up; a key without users is forgotten.
func TestRowGate(t *testing.T) {
	g := &rowGate{rows: map[string]*gatedRow{}}
	ctx := context.Background()
	for range HotRowWaiters {
		if err := g.enter(ctx, "hot"); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.enter(ctx, "cold"); err != nil {
		t.Fatalf("another key: %v", err)
	}
	g.leave("cold")

	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	err := g.enter(short, "hot")
	if e, ok := apperr.As(err); !ok || e.Code != http.StatusConflict || e.Key != "resource_locked" || e.RetryAfter <= 0 {
		t.Fatalf("waiting past the deadline: %v, want 409 resource_locked", err)
	}
	gone, stop := context.WithCancel(ctx)
	stop()
	if err := g.enter(gone, "hot"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request: %v", err)
	}

	entered := make(chan error)
	go func() { entered <- g.enter(ctx, "hot") }()
	g.leave("hot")
	if err := <-entered; err != nil {
		t.Fatalf("after one left: %v", err)
	}
	for range HotRowWaiters {
		g.leave("hot")
	}
	if len(g.rows) != 0 {
		t.Errorf("rows kept after every user left: %v", g.rows)
	}
}

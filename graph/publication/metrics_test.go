package publication

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// countingObserver records what the use cases report.
type countingObserver struct {
	mu     sync.Mutex
	counts map[string]int
}

func (o *countingObserver) add(k string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.counts == nil {
		o.counts = map[string]int{}
	}
	o.counts[k]++
}

func (o *countingObserver) get(k string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.counts[k]
}

func (o *countingObserver) Publication(result string) { o.add("publication " + result) }
func (o *countingObserver) Redemption(result string)  { o.add("redemption " + result) }
func (o *countingObserver) RedemptionRollback()       { o.add("rollback") }

// TestPublicationsAreCountedWhenTheirTransactionEnds: a publication counts
// as SUCCESS only once the transaction it joined commits, as FAILURE when
// that transaction is rolled back or publishing fails, and never twice.
func TestPublicationsAreCountedWhenTheirTransactionEnds(t *testing.T) {
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "observed", "OB-1", "OB-2", "OB-3")
	obs := &countingObserver{}
	ctx = observe.WithObserver(ctx, obs)
	want := func(success, failure int) {
		t.Helper()
		if s, f := obs.get("publication SUCCESS"), obs.get("publication FAILURE"); s != success || f != failure {
			t.Fatalf("publications: %d SUCCESS, %d FAILURE; want %d, %d", s, f, success, failure)
		}
	}

	// Its own transaction: counted when publish returns.
	if _, err := Publish(ctx, fromCampaign("observed", "ann", nil), false); err != nil {
		t.Fatal(err)
	}
	want(1, 0)

	// The caller's transaction: counted at its commit, not before.
	err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := Publish(ctx, fromCampaign("observed", "ben", nil), false); err != nil {
			return err
		}
		want(1, 0)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want(2, 0)

	// Rolled back after publishing: a failure, not a success.
	rollback := errors.New("a later step failed")
	err = store.InTx(ctx, func(ctx context.Context) error {
		if _, err := Publish(ctx, fromCampaign("observed", "cat", nil), false); err != nil {
			return err
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	want(2, 1)

	// Refused.
	if _, err := Publish(ctx, fromCampaign("no such campaign", "dan", nil), false); err == nil {
		t.Fatal("published from an unknown campaign")
	}
	want(2, 2)

	// Without an observer nothing is reported and nothing breaks.
	if _, err := Publish(observe.WithoutObserver(ctx), fromCampaign("observed", "eve", nil), false); err != nil {
		t.Fatal(err)
	}
	want(2, 2)
}

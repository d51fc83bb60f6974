package publication

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestAdmissionBoundsStatements: with an admission of two, eight
// concurrent publications all succeed with distinct vouchers, and never
// more than two single statements run at once.
func TestAdmissionBoundsStatements(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	_, ctx := graphtest.ProjectContext(t)
	codes := make([]string, 8)
	for i := range codes {
		codes[i] = fmt.Sprintf("ADM-%d", i)
	}
	campaigntest.WithCodes(t, ctx, "admitted", codes...)
	ctx = store.WithAdmission(ctx, store.NewAdmission(2))

	var running, most atomic.Int32
	var served atomic.Int32
	t.Cleanup(func() { PublishOneStatement = PublishInOneStatement })
	PublishOneStatement = func(ctx context.Context, in PublishInput, count int) (*ent.Publication, bool, error) {
		now := running.Add(1)
		defer running.Add(-1)
		for prev := most.Load(); now > prev && !most.CompareAndSwap(prev, now); prev = most.Load() {
		}
		pub, done, err := PublishInOneStatement(ctx, in, count)
		if done {
			served.Add(1)
		}
		return pub, done, err
	}

	var wg sync.WaitGroup
	got := make(chan string, len(codes))
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pub, err := Publish(ctx, fromCampaign("admitted", fmt.Sprintf("cust-%d", i), nil), false)
			if err != nil {
				t.Errorf("publication %d: %v", i, err)
				return
			}
			got <- pub.Edges.Vouchers[0].Code
		}()
	}
	wg.Wait()
	close(got)
	seen := map[string]bool{}
	for code := range got {
		if seen[code] {
			t.Errorf("voucher %s handed out twice", code)
		}
		seen[code] = true
	}
	if len(seen) != len(codes) || served.Load() != int32(len(codes)) {
		t.Errorf("%d distinct vouchers, %d served by the statement; want %d", len(seen), served.Load(), len(codes))
	}
	if most.Load() > 2 {
		t.Errorf("%d statements ran at once; the admission allows 2", most.Load())
	}
}

// TestAdmissionWaitingRequest: a request waiting for a slot stops
// when its client goes away (499, and it takes no slot with it), and a
// statement inside a caller's transaction never waits, since that
// transaction may hold locks an admitted statement waits for.
func TestAdmissionWaitingRequest(t *testing.T) {
	ctx := store.WithAdmission(context.Background(), store.NewAdmission(1))
	release, err := store.Admit(ctx)
	if err != nil {
		t.Fatal(err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = store.Admit(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request waiting for a slot: err %v, want context.Canceled", err)
	}
	if e, ok := apperr.From(err); !ok || e.Code != 499 {
		t.Errorf("a cancelled wait maps to %+v, want 499", e)
	}

	_, tctx := graphtest.ProjectContext(t)
	tctx = store.WithAdmission(tctx, store.NewAdmission(1))
	hold, err := store.Admit(tctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.InTx(tctx, func(ctx context.Context) error {
		inTx, err := store.Admit(ctx)
		if err == nil {
			inTx()
		}
		return err
	}); err != nil {
		t.Fatalf("inside a transaction, with every slot taken: %v", err)
	}
	hold()

	release()
	again, err := store.Admit(ctx)
	if err != nil {
		t.Fatalf("after the cancelled wait, the freed slot: %v", err)
	}
	again()

	if store.NewAdmission(0) != nil || store.NewAdmission(-1) != nil {
		t.Error("an admission of 0 or less should admit everything (nil)")
	}
	unlimited, err := store.Admit(store.WithAdmission(context.Background(), nil))
	if err != nil {
		t.Fatal(err)
	}
	unlimited()
}

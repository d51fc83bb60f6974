package redemption

import (
	"context"
	"reflect"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// redemptionPaths replaces the batch runner for one test: with
// transactional set, every guarded batch is refused before it is sent (the
// transactional path answers); otherwise *served counts the batches that
// wrote, and before, when not nil, runs just before a batch is sent.
func redemptionPaths(t *testing.T, transactional bool, served *int, before func(ctx context.Context)) {
	t.Helper()
	if !entdbtest.IsPostgres() {
		t.Skip("the one-statement redemption is PostgreSQL's")
	}
	t.Cleanup(func() {
		RunRedemptionBatch = runBatch
		ContendedCodes.Clear()
	})
	RunRedemptionBatch = func(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
		if transactional {
			return entdb.ErrNotBatchable
		}
		if before != nil {
			before(ctx)
		}
		err := b.Run(ctx, c)
		if err == nil {
			*served++
		}
		return err
	}
}

// redeemCode is a stacked redemption of one code with a 1000 order.
func redeemCode(code string) StackedRedemptionInput {
	return StackedRedemptionInput{Redeemables: []*RedeemableInput{{Object: graphtest.Ptr("voucher"), ID: code}},
		Order: &OrderInput{Amount: graphtest.Ptr(int64(1000))}}
}

// limitedCode adds a code that can be redeemed once to campaign.
func limitedCode(t *testing.T, ctx context.Context, campaign, code string) {
	t.Helper()
	limitedCodeN(t, ctx, campaign, code, 1)
}

// limitedCodeN adds a code that can be redeemed n times to campaign.
func limitedCodeN(t *testing.T, ctx context.Context, campaign, code string, n int) {
	t.Helper()
	if err := store.InTx(ctx, func(ctx context.Context) error {
		_, err := campaignpkg.AddVoucher(ctx, campaign, &campaignpkg.AddVouchersInput{Code: &code, Redemption: &jsonfield.Redemption{Quantity: &n}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// storedRedemptions counts the code's child redemptions with result.
func storedRedemptions(t *testing.T, ctx context.Context, code string, result redemption.Result) int {
	t.Helper()
	return ent.FromContext(ctx).Redemption.Query().
		Where(redemption.VoucherCode(code), redemption.ResultEQ(result)).CountX(ctx)
}

// wantLostGuard redeems code and expects its guarded write to fail (no
// batch served) and the locking path to answer quantity_exceeded.
func wantLostGuard(t *testing.T, ctx context.Context, code string, served *int) {
	t.Helper()
	res, err := RedeemStacked(ctx, redeemCode(code))
	if err != nil {
		t.Fatal(err)
	}
	if *served != 0 || res.Failure == nil || res.Failure.Key != "quantity_exceeded" {
		t.Fatalf("%s: served %d, failure %+v; want the guard to fail and quantity_exceeded", code, *served, res.Failure)
	}
}

func redeemedCount(t *testing.T, ctx context.Context, code string) int {
	t.Helper()
	return ent.FromContext(ctx).Voucher.Query().Where(voucher.Code(code)).OnlyX(ctx).RedeemedQuantity
}

// TestOneStatementRedemptionMatchesTransactionalPath: the one-statement
// redemption answers and stores exactly what the transactional path does.
func TestOneStatementRedemptionMatchesTransactionalPath(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "FAST", "SLOW")

	fast, err := RedeemStacked(ctx, redeemCode("FAST"))
	if err != nil || served != 1 || fast.Failure != nil {
		t.Fatalf("one statement: served %d, err %v, failure %+v", served, err, fast)
	}
	redemptionPaths(t, true, nil, nil)
	slow, err := RedeemStacked(ctx, redeemCode("SLOW"))
	if err != nil || slow.Failure != nil {
		t.Fatalf("transactional path: err %v, failure %+v", err, slow)
	}
	shown := func(r *StackedRedemptionResult) map[string]any {
		return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions, "order": r.Order})
	}
	if got, want := shown(fast), shown(slow); !reflect.DeepEqual(got, want) {
		t.Errorf("one statement returned\n%v\ntransactional path returned\n%v", got, want)
	}
	// What is stored, read back: the same rows.
	c := ent.FromContext(ctx)
	stored := func(r *StackedRedemptionResult) map[string]any {
		parent := c.Redemption.GetX(ctx, r.ParentRedemption.ID)
		child := c.Redemption.GetX(ctx, r.Redemptions[0].ID)
		o := c.Order.Query().Where(order.ID(*child.OrderID)).OnlyX(ctx)
		return graphtest.Comparable(t, map[string]any{"parent": parent, "child": child, "order": o})
	}
	if got, want := stored(fast), stored(slow); !reflect.DeepEqual(got, want) {
		t.Errorf("one statement stored\n%v\ntransactional path stored\n%v", got, want)
	}
	for _, code := range []string{"FAST", "SLOW"} {
		if n := redeemedCount(t, ctx, code); n != 1 {
			t.Errorf("%s: redeemed_quantity %d, want 1", code, n)
		}
	}

	// The legacy single-code form takes the same path.
	redemptionPaths(t, false, &served, nil)
	if _, err := RedeemVoucher(ctx, "FAST", &VoucherRedemptionInput{Order: &OrderInput{Amount: graphtest.Ptr(int64(500))}}); err != nil || served != 2 {
		t.Fatalf("legacy redemption: served %d, err %v", served, err)
	}
	if n := redeemedCount(t, ctx, "FAST"); n != 2 {
		t.Errorf("FAST: redeemed_quantity %d after the legacy redemption, want 2", n)
	}
}

// TestOneStatementRedemptionLosesToAConcurrentRedemption: the last unit
// of a code is redeemed elsewhere between the guarded read and the write.
// The statement writes nothing (no order, no redemption, no counter), and
// the transactional path answers quantity_exceeded from the new state.
func TestOneStatementRedemptionLosesToAConcurrentRedemption(t *testing.T) {
	served := 0
	db, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo")
	limitedCode(t, ctx, "promo", "LAST")
	orders := db.Client.Order.Query().CountX(ctx)
	redemptionPaths(t, false, &served, func(context.Context) {
		// Another process redeems the last unit meanwhile.
		db.Client.Voucher.Update().Where(voucher.Code("LAST")).AddRedeemedQuantity(1).ExecX(ctx)
	})
	wantLostGuard(t, ctx, "LAST", &served)
	if n := redeemedCount(t, ctx, "LAST"); n != 1 {
		t.Errorf("redeemed_quantity %d, want 1 (the other process's redemption only)", n)
	}
	if n := storedRedemptions(t, ctx, "LAST", redemption.ResultSUCCESS); n != 0 {
		t.Errorf("%d successful redemptions stored, want 0", n)
	}
	if n := db.Client.Order.Query().CountX(ctx) - orders; n != 0 {
		t.Errorf("%d orders stored, want none (a failed redemption stores none)", n)
	}
	// The code is contended now: the next redemption goes straight to the
	// locking path (no batch is sent).
	sent := false
	redemptionPaths(t, false, &served, func(context.Context) { sent = true })
	if _, err := RedeemStacked(ctx, redeemCode("LAST")); err != nil || sent {
		t.Errorf("after a lost guard: batch sent %v, err %v; want the locking path", sent, err)
	}
}

// TestSessionLockInvalidatesAGuardedRead: a validation locks the last unit
// for its session between the guarded read and the write. Taking the lock
// makes a new version of the voucher row, so the statement writes nothing
// and the transactional path sees the unit held.
func TestSessionLockInvalidatesAGuardedRead(t *testing.T) {
	served := 0
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo")
	limitedCode(t, ctx, "promo", "HELD")
	redemptionPaths(t, false, &served, func(context.Context) {
		in := redeemCode("HELD")
		in.Session = &SessionInput{Type: graphtest.Ptr("LOCK")}
		res, err := ValidateStacked(ctx, in)
		if err != nil || !res.Valid {
			t.Errorf("session lock: %+v, %v", res, err)
		}
	})
	wantLostGuard(t, ctx, "HELD", &served)
	if n := redeemedCount(t, ctx, "HELD"); n != 0 {
		t.Errorf("redeemed_quantity %d, want 0", n)
	}
}

// TestGuardedLookUpCountsOtherSessionsLocks: the one-statement
// redemption reads the session locks on its voucher with the voucher (no
// query of its own): of a code redeemable twice, with one unit held by a
// session, one redemption is one statement and the next finds the code
// used up (quantity_exceeded, answered by the locking path).
func TestGuardedLookUpCountsOtherSessionsLocks(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo")
	limitedCodeN(t, ctx, "promo", "TWICE", 2)
	in := redeemCode("TWICE")
	in.Session = &SessionInput{Type: graphtest.Ptr("LOCK"), Key: graphtest.Ptr("someone-else")}
	if res, err := ValidateStacked(ctx, in); err != nil || !res.Valid {
		t.Fatalf("session lock: %+v, %v", res, err)
	}
	res, err := RedeemStacked(ctx, redeemCode("TWICE"))
	if err != nil || res.Failure != nil || served != 1 {
		t.Fatalf("first redemption: served %d, err %v, failure %+v", served, err, res)
	}
	res, err = RedeemStacked(ctx, redeemCode("TWICE"))
	if err != nil || res.Failure == nil || res.Failure.Key != "quantity_exceeded" || served != 1 {
		t.Fatalf("second redemption: served %d, err %v, failure %+v; want quantity_exceeded", served, err, res)
	}
}

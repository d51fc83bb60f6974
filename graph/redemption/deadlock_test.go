package redemption

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// TestTransactionalRedemptionOutlivesADeadlock: a stacked redemption on
// the locking path takes its vouchers in ID order, but another writer (a
// second server process, an operator's script) may take them in the
// opposite order. PostgreSQL then aborts one of the two; when it picks the
// redemption, the redemption runs again in a new transaction and
// succeeds, instead of answering the client an error for a conflict it
// did not cause.
func TestTransactionalRedemptionOutlivesADeadlock(t *testing.T) {
	redemptionPaths(t, true, nil, nil)
	_, ctx := graphtest.ProjectContext(t)
	// PostgreSQL looks for a cycle once, deadlock_timeout (1 s) after a
	// backend starts waiting, and the backend that finds it is the victim.
	// The redemption is the victim only if the other writer asks for its
	// second row within that second; on a starved host (CI: two test passes
	// under the race detector) the test's own polling can take longer, and
	// then the other writer finds the cycle and is aborted. That attempt
	// still proves something (the redemption, unblocked, succeeds) but not
	// the retry: the test tries again with new codes, up to five times.
	for attempt := 1; ; attempt++ {
		retried := deadlockAttempt(t, ctx, attempt)
		if retried {
			return
		}
		if attempt == 5 {
			t.Fatal("in five attempts, the other writer was always the deadlock's victim: the redemption's retry was never exercised")
		}
		t.Logf("attempt %d: the other writer asked for its second row after the redemption's deadlock check; trying again", attempt)
	}
}

// deadlockAttempt makes one lock cycle between a stacked redemption and
// another writer and checks the redemption's outcome. It reports whether
// PostgreSQL chose the redemption as the victim (so the redemption
// succeeded by running again); false when the other writer was chosen.
func deadlockAttempt(t *testing.T, ctx context.Context, attempt int) bool {
	t.Helper()
	codeA, codeB := fmt.Sprintf("DLA%d", attempt), fmt.Sprintf("DLB%d", attempt)
	campaigntest.WithCodes(t, ctx, fmt.Sprintf("deadlock %d", attempt), codeA, codeB)
	c := ent.FromContext(ctx)
	ids := c.Voucher.Query().Where(voucher.CodeIn(codeA, codeB)).IDsX(ctx)
	if len(ids) != 2 {
		t.Fatalf("vouchers %v", ids)
	}
	slices.Sort(ids)
	low, high := ids[0], ids[1]

	// The other writer holds the higher voucher first.
	other, err := c.Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Rollback() }()
	if _, err := other.Client().ExecContext(ctx, `SELECT 1 FROM vouchers WHERE id = $1 FOR UPDATE`, high); err != nil {
		t.Fatal(err)
	}

	type answer struct {
		res *StackedRedemptionResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := RedeemStacked(ctx, redeemCodes(codeA, codeB))
		done <- answer{res, err}
	}()

	// The redemption has locked the lower voucher and waits for the
	// higher one: it waits on a lock of the vouchers table.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var waiting int
		rows, err := c.QueryContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock' AND query LIKE 'SELECT "v"."id"%'`) // the look-up (its text outgrows the column)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			if err := rows.Scan(&waiting); err != nil {
				t.Fatal(err)
			}
		}
		_ = rows.Close()
		if waiting > 0 {
			break
		}
		select {
		case a := <-done:
			t.Fatalf("the redemption did not wait for the locked voucher: %+v, %v", a.res, a.err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the redemption never waited for the locked voucher")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Now the other writer wants the lower voucher: a cycle. The
	// redemption has waited longer, so its deadlock check runs first and
	// PostgreSQL aborts it; the other writer gets the row and commits.
	_, victimErr := other.Client().ExecContext(ctx, `SELECT 1 FROM vouchers WHERE id = $1 FOR UPDATE`, low)
	if victimErr == nil {
		if err := other.Commit(); err != nil {
			t.Fatal(err)
		}
	} else {
		// The other writer was the victim: rolling it back lets the
		// redemption through on its first run.
		_ = other.Rollback()
	}
	a := <-done
	if a.err != nil {
		t.Fatalf("the redemption answered an error after a deadlock: %v", a.err)
	}
	if a.res.Failure != nil || len(a.res.Redemptions) != 2 {
		t.Fatalf("the redemption: %+v", a.res)
	}
	for _, code := range []string{codeA, codeB} {
		if n := redeemedCount(t, ctx, code); n != 1 {
			t.Errorf("%s: redeemed_quantity %d, want 1", code, n)
		}
	}
	return victimErr == nil
}

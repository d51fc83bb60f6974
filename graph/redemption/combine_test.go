package redemption

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// combining runs one test with the redemption batches combined (the
// default runner), on PostgreSQL.
func combining(t *testing.T) {
	t.Helper()
	if !entdbtest.IsPostgres() {
		t.Skip("the one-statement redemption is PostgreSQL's")
	}
	RunRedemptionBatch = runBatch
	lanes := CombineLanes
	CombineLanes = 1 // holdLane takes the only one
	t.Cleanup(func() {
		RunRedemptionBatch = runBatch
		ContendedCodes.Clear()
		beforeCombined = nil
		CombineLanes = lanes
	})
}

// holdLane takes the combiner's only lane for ctx's database, as a
// running statement would: batches sent meanwhile queue. release hands
// the queue on as the end of that statement does.
func holdLane(t *testing.T, ctx context.Context) (queued func() int, release func()) {
	t.Helper()
	if CombineLanes != 1 {
		t.Fatalf("CombineLanes %d, want 1", CombineLanes)
	}
	cv, _ := combiners.LoadOrStore(ent.FromContext(ctx), &combiner{})
	cb := cv.(*combiner)
	for !cb.TryLane(1) {
		time.Sleep(time.Millisecond)
	}
	return cb.Queued, cb.HandOver
}

// redeemQueued sends ins at once while the lane is held, waits until every
// one is queued, releases the lane and returns the answers.
func redeemQueued(t *testing.T, ctx context.Context, ins []StackedRedemptionInput) ([]*StackedRedemptionResult, []error) {
	t.Helper()
	ctxs := make([]context.Context, len(ins))
	for i := range ctxs {
		ctxs[i] = ctx
	}
	return redeemQueuedIn(t, ctxs, ins)
}

// redeemQueuedIn is redeemQueued with each request in its own context (of
// one database).
func redeemQueuedIn(t *testing.T, ctxs []context.Context, ins []StackedRedemptionInput) ([]*StackedRedemptionResult, []error) {
	t.Helper()
	queued, release := holdLane(t, ctxs[0])
	out, errs := make([]*StackedRedemptionResult, len(ins)), make([]error, len(ins))
	var wg sync.WaitGroup
	for i, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = RedeemStacked(ctxs[i], in)
		}()
	}
	deadline := time.Now().Add(20 * time.Second)
	for queued() < len(ins) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := queued(); n != len(ins) {
		t.Errorf("%d of %d batches queued", n, len(ins))
	}
	release()
	wg.Wait()
	return out, errs
}

// TestCombinedRedemptionsStoreWhatALoneOneStores: concurrent redemptions of
// distinct codes (new and known customers, by source_id) go out as one
// statement, and each answers and stores exactly what a lone redemption
// does: the parent, the child, the order, the customer, the counters.
func TestCombinedRedemptionsStoreWhatALoneOneStores(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	const n = 6
	codes := []string{"LONE-NEW", "LONE-KNOWN"}
	for i := 0; i < n; i++ {
		codes = append(codes, fmt.Sprintf("CMB-%d", i))
	}
	campaigntest.WithCodes(t, ctx, "promo", codes...)
	// Half the members name a known customer (as does one lone redemption).
	for _, src := range []string{"known-lone", "known-1", "known-3", "known-5"} {
		if _, err := customerpkg.UpsertCustomer(ctx, customerpkg.CustomerInput{SourceID: graphtest.Ptr(src)}); err != nil {
			t.Fatal(err)
		}
	}
	src := func(i int) string {
		if i%2 == 1 {
			return fmt.Sprintf("known-%d", i)
		}
		return fmt.Sprintf("new-%d", i)
	}
	c := ent.FromContext(ctx)
	stmts, members := CombinedCounts()
	lone := map[bool]*StackedRedemptionResult{}
	for _, known := range []bool{false, true} {
		s := "new-lone"
		if known {
			s = "known-lone"
		}
		code := "LONE-NEW"
		if known {
			code = "LONE-KNOWN"
		}
		res, err := RedeemStacked(ctx, redeemAs(code, s, "pro"))
		if err != nil || res.Failure != nil {
			t.Fatalf("lone redemption: %v, %+v", err, res)
		}
		lone[known] = res
	}
	if s, _ := CombinedCounts(); s != stmts {
		t.Fatalf("a lone redemption was combined")
	}
	ins := make([]StackedRedemptionInput, n)
	for i := range ins {
		ins[i] = redeemAs(codes[i+2], src(i), "pro")
	}
	out, errs := redeemQueued(t, ctx, ins)
	s, m := CombinedCounts()
	if s-stmts != 1 || m-members != n {
		t.Errorf("%d combined statements of %d members, want 1 of %d", s-stmts, m-members, n)
	}
	shown := func(r *StackedRedemptionResult) map[string]any {
		return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions, "order": r.Order})
	}
	stored := func(r *StackedRedemptionResult) map[string]any {
		parent := c.Redemption.GetX(ctx, r.ParentRedemption.ID)
		child := c.Redemption.GetX(ctx, r.Redemptions[0].ID)
		o := c.Order.Query().Where(order.ID(*child.OrderID)).OnlyX(ctx)
		cust := c.Customer.GetX(ctx, *child.CustomerID)
		return graphtest.Comparable(t, map[string]any{"parent": parent, "child": child, "order": o, "customer": cust})
	}
	for i, res := range out {
		if errs[i] != nil || res == nil || res.Failure != nil {
			t.Errorf("member %d: %v, %+v", i, errs[i], res)
			continue
		}
		want := lone[i%2 == 1]
		if got, want := shown(res), shown(want); !reflect.DeepEqual(got, want) {
			t.Errorf("member %d answered\n%v\na lone redemption answered\n%v", i, got, want)
		}
		if got, want := stored(res), stored(want); !reflect.DeepEqual(got, want) {
			t.Errorf("member %d stored\n%v\na lone redemption stored\n%v", i, got, want)
		}
		if got := c.Customer.GetX(ctx, *res.Redemptions[0].CustomerID); got.SourceID == nil || *got.SourceID != src(i) {
			t.Errorf("member %d: redeemed as %v, want %s", i, got.SourceID, src(i))
		}
		if k := redeemedCount(t, ctx, codes[i+2]); k != 1 {
			t.Errorf("%s: redeemed_quantity %d, want 1", codes[i+2], k)
		}
	}
	if k := c.Customer.Query().Where(customer.SourceIDHasPrefix("new-")).CountX(ctx); k != n/2+1 {
		t.Errorf("%d new customers, want %d", k, n/2+1)
	}
}

// TestCombinedRedemptionLosesOneGuard: a member whose voucher changes
// between its read and the combined statement writes nothing of its own,
// the others are written, and it is answered by the locking path.
func TestCombinedRedemptionLosesOneGuard(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo")
	for i := 0; i < 4; i++ {
		limitedCode(t, ctx, "promo", fmt.Sprintf("G-%d", i))
	}
	c := ent.FromContext(ctx)
	var once sync.Once
	beforeCombined = func(context.Context, int) {
		once.Do(func() { // as another redemption of G-1 would
			c.Voucher.Update().Where(voucher.Code("G-1")).SetRedeemedQuantity(1).ExecX(ctx)
		})
	}
	stmts, members := CombinedCounts()
	ins := make([]StackedRedemptionInput, 4)
	for i := range ins {
		ins[i] = redeemCode(fmt.Sprintf("G-%d", i))
	}
	out, errs := redeemQueued(t, ctx, ins)
	for i, res := range out {
		switch {
		case errs[i] != nil:
			t.Errorf("G-%d: %v", i, errs[i])
		case i == 1 && (res.Failure == nil || res.Failure.Key != "quantity_exceeded"):
			t.Errorf("G-1: failure %+v, want quantity_exceeded from the locking path", res.Failure)
		case i != 1 && res.Failure != nil:
			t.Errorf("G-%d: failure %+v", i, res.Failure)
		}
	}
	if s, m := CombinedCounts(); s-stmts != 1 || m-members != 3 {
		t.Errorf("%d combined statements of %d members, want 1 of 3", s-stmts, m-members)
	}
	if k := storedRedemptions(t, ctx, "G-1", redemption.ResultSUCCESS); k != 0 {
		t.Errorf("G-1: %d successful redemptions stored, want 0", k)
	}
	for i := 0; i < 4; i++ {
		if k := redeemedCount(t, ctx, fmt.Sprintf("G-%d", i)); k != 1 {
			t.Errorf("G-%d: redeemed_quantity %d, want 1", i, k)
		}
	}
}

// TestCombinedRedemptionWrittenInPartRunsAlone: a member whose vouchers
// held but whose customer changed cannot be undone within the statement:
// the statement writes nothing and every member runs alone, each as it
// would have.
func TestCombinedRedemptionWrittenInPartRunsAlone(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "P-0", "P-1", "P-2")
	for i := 0; i < 3; i++ {
		if _, err := customerpkg.UpsertCustomer(ctx, customerpkg.CustomerInput{SourceID: graphtest.Ptr(fmt.Sprintf("p-%d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	c := ent.FromContext(ctx)
	var once sync.Once
	beforeCombined = func(context.Context, int) {
		once.Do(func() {
			c.Customer.Update().Where(customer.SourceID("p-1")).SetName("changed").ExecX(ctx)
		})
	}
	stmts, _ := CombinedCounts()
	ins := make([]StackedRedemptionInput, 3)
	for i := range ins {
		ins[i] = redeemAs(fmt.Sprintf("P-%d", i), fmt.Sprintf("p-%d", i), "pro")
	}
	out, errs := redeemQueued(t, ctx, ins)
	for i, res := range out {
		if errs[i] != nil || res.Failure != nil {
			t.Errorf("P-%d: %v, %+v", i, errs[i], res)
		}
		if k := redeemedCount(t, ctx, fmt.Sprintf("P-%d", i)); k != 1 {
			t.Errorf("P-%d: redeemed_quantity %d, want 1", i, k)
		}
		if k := storedRedemptions(t, ctx, fmt.Sprintf("P-%d", i), redemption.ResultSUCCESS); k != 1 {
			t.Errorf("P-%d: %d redemptions stored, want 1", i, k)
		}
	}
	if s, _ := CombinedCounts(); s != stmts {
		t.Errorf("%d combined statements wrote, want none", s-stmts)
	}
	if got := c.Customer.Query().Where(customer.SourceID("p-1")).OnlyX(ctx); got.Name == nil || *got.Name != "Ann pro" {
		t.Errorf("p-1's name %v, want the redemption's profile", got.Name)
	}
}

// TestCombinedRedemptionsOfANewCustomerRace: two members naming one new
// customer never share a statement, and a new customer's source_id
// inserted by another request meanwhile makes the combined statement
// write nothing: every member runs alone, and all end with one customer
// row per source_id.
func TestCombinedRedemptionsOfANewCustomerRace(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "N-0", "N-1", "N-2", "N-3")
	var once sync.Once
	first := 0
	beforeCombined = func(_ context.Context, members int) {
		once.Do(func() {
			first = members
			if _, err := customerpkg.UpsertCustomer(ctx, customerpkg.CustomerInput{SourceID: graphtest.Ptr("racer")}); err != nil {
				t.Error(err)
			}
		})
	}
	stmts, _ := CombinedCounts()
	ins := []StackedRedemptionInput{redeemAs("N-0", "dup", "pro"), redeemAs("N-1", "dup", "pro"),
		redeemAs("N-2", "racer", "pro"), redeemAs("N-3", "other", "pro")}
	out, errs := redeemQueued(t, ctx, ins)
	for i, res := range out {
		if errs[i] != nil || res.Failure != nil {
			t.Errorf("N-%d: %v, %+v", i, errs[i], res)
		}
		if k := redeemedCount(t, ctx, fmt.Sprintf("N-%d", i)); k != 1 {
			t.Errorf("N-%d: redeemed_quantity %d, want 1", i, k)
		}
	}
	c := ent.FromContext(ctx)
	for _, src := range []string{"dup", "racer", "other"} {
		if k := c.Customer.Query().Where(customer.SourceID(src)).CountX(ctx); k != 1 {
			t.Errorf("%d customers %s, want 1", k, src)
		}
	}
	if first != 3 {
		t.Errorf("the first combined statement had %d members, want 3 (one of the two naming dup waits)", first)
	}
	if s, _ := CombinedCounts(); s != stmts {
		t.Errorf("%d combined statements wrote, want none (the first lost the insert, then each ran alone)", s-stmts)
	}
}

// TestCombinedRedemptionsExactlyQ: many requests racing on a code limited
// to 5 uses among requests of distinct codes, all combined where they
// can be: exactly 5 succeed, every distinct code is redeemed once, no
// request errs.
func TestCombinedRedemptionsExactlyQ(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo")
	limitedCodeN(t, ctx, "promo", "Q5", 5)
	const n = 24
	for i := 0; i < n; i++ {
		limitedCode(t, ctx, "promo", fmt.Sprintf("D-%d", i))
	}
	stmts, members := CombinedCounts()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ok, exceeded int
	for i := 0; i < 2*n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := "Q5"
			if i%2 == 1 {
				code = fmt.Sprintf("D-%d", i/2)
			}
			in := redeemCode(code)
			if i%4 == 0 { // some with customers, one of them shared
				in = redeemAs(code, fmt.Sprintf("q-%d", i%8), "pro")
			}
			res, err := RedeemStacked(ctx, in)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("%s: %v", code, err)
			case code != "Q5" && res.Failure != nil:
				t.Errorf("%s: %+v", code, res.Failure)
			case code == "Q5" && res.Failure == nil:
				ok++
			case code == "Q5" && res.Failure.Key == "quantity_exceeded":
				exceeded++
			case code == "Q5":
				t.Errorf("Q5: %+v", res.Failure)
			}
		}()
	}
	wg.Wait()
	if ok != 5 || exceeded != n-5 {
		t.Errorf("Q5: %d succeeded, %d refused; want 5, %d", ok, exceeded, n-5)
	}
	if k := redeemedCount(t, ctx, "Q5"); k != 5 {
		t.Errorf("Q5: redeemed_quantity %d, want 5", k)
	}
	if k := storedRedemptions(t, ctx, "Q5", redemption.ResultSUCCESS); k != 5 {
		t.Errorf("Q5: %d successful redemptions stored, want 5", k)
	}
	for i := 0; i < n; i++ {
		if k := redeemedCount(t, ctx, fmt.Sprintf("D-%d", i)); k != 1 {
			t.Errorf("D-%d: redeemed_quantity %d, want 1", i, k)
		}
	}
	s, m := CombinedCounts()
	t.Logf("%d combined statements of %d members", s-stmts, m-members)
}

package redemption

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
)

// combiningLookups runs one test with look-ups combined on one lane, on
// PostgreSQL.
func combiningLookups(t *testing.T) {
	t.Helper()
	if !entdbtest.IsPostgres() {
		t.Skip("the one-statement redemption's look-up is PostgreSQL's")
	}
	lanes, on := LookupLanes, CombineLookups
	LookupLanes, CombineLookups = 1, true // holdLookupLane takes the only one
	t.Cleanup(func() {
		LookupLanes, CombineLookups = lanes, on
		beforeCombinedLookup = nil
	})
}

// holdLookupLane takes the look-up combiner's only lane for ctx's
// database: look-ups sent meanwhile queue. queued counts them; release
// hands the queue on as the end of a statement does.
func holdLookupLane(t *testing.T, ctx context.Context) (queued func() int, release func()) {
	t.Helper()
	cv, _ := lookupCombiners.LoadOrStore(ent.FromContext(ctx), &lookupCombiner{})
	lc := cv.(*lookupCombiner)
	for !lc.TryLane(1) {
		time.Sleep(time.Millisecond)
	}
	return lc.Queued, lc.HandOver
}

// lookupCase is one look-up of a test.
type lookupCase struct {
	ctx   context.Context
	codes []string
	cust  *customerRef
}

// lookedUpSummary is what a look-up found, comparable.
type lookedUpSummary struct {
	Vouchers              []string
	CustomerRead          bool
	Customer, CustomerVer string
	CustomerMetadata      string
}

func summarize(res lookupResult) lookedUpSummary {
	var s lookedUpSummary
	for _, f := range res.vouchers {
		cmp := ""
		if f.voucher.Edges.Campaign != nil {
			cmp = f.voucher.Edges.Campaign.ID + "/" + f.voucher.Edges.Campaign.Name
		}
		s.Vouchers = append(s.Vouchers, fmt.Sprintf("%s %s %s p=%s c=%s rules=%v/%s webhooks=%v held=%v%+v ver=%s cver=%s",
			f.voucher.ID, f.voucher.Code, cmp, f.voucher.ProjectID, cmp, f.hasRules, f.rules, f.webhooks,
			f.heldRead, f.held, f.version, f.customerVersion))
	}
	s.CustomerRead, s.CustomerVer = res.customerRead, res.customerVersion
	if res.customer != nil {
		s.Customer = res.customer.ID + " " + res.customer.ProjectID
		s.CustomerMetadata = fmt.Sprint(res.customer.Metadata)
	}
	return s
}

// lookUpQueued runs cases at once while the look-up lane is held, waits
// until every one is queued, releases the lane and returns the results.
func lookUpQueued(t *testing.T, cases []lookupCase, now time.Time) ([]lookupResult, []error) {
	t.Helper()
	queued, release := holdLookupLane(t, cases[0].ctx)
	out, errs := make([]lookupResult, len(cases)), make([]error, len(cases))
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = lookupVouchers(c.ctx, c.codes, false, true, c.cust, now)
		}()
	}
	deadline := time.Now().Add(20 * time.Second)
	for queued() < len(cases) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := queued(); n != len(cases) {
		t.Errorf("%d of %d look-ups queued", n, len(cases))
	}
	release()
	wg.Wait()
	return out, errs
}

// TestCombinedLookUpsAnswerAsAlone: concurrent look-ups of two projects —
// the same codes and customer source_id in both, a project's rules, a
// project's webhook, another session's lock, a code only the other
// project has, a customer unknown, none — go out as one statement, and
// each member gets exactly what its own look-up gives alone; no row of
// the other project is seen.
func TestCombinedLookUpsAnswerAsAlone(t *testing.T) {
	combiningLookups(t)
	db, ctx := graphtest.ProjectContext(t)
	other := db.Client.Project.Create().SetName("other").SetFeatures(feature.All).SaveX(ctx)
	ctx2 := viewer.NewContext(ctx, viewer.Viewer{ProjectID: other.ID})
	campaigntest.WithCodes(t, ctx, "promo", "SAME", "MORE", "ALSO")
	campaigntest.WithCodes(t, ctx2, "promo", "SAME", "ONLY-B")
	limitedCodeN(t, ctx2, "promo", "HELD-B", 5)
	// Project 1: a rule on its campaign. Project 2: an active webhook and
	// another session's lock on HELD-B.
	rule, err := validationrules.CreateValidationRule(ctx, validationrules.ValidationRuleInput{Name: graphtest.Ptr("big"),
		Rules: map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}}, "logic": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := validationrules.AssignValidationRule(ctx, rule.ID, validationrules.RuleAssignmentInput{Campaign: graphtest.Ptr("promo")}); err != nil {
		t.Fatal(err)
	}
	db.Client.Webhook.Create().SetProjectID(other.ID).SetTargetURL("https://example.com/hook").
		SetEvents([]string{"voucher.published"}).SaveX(ctx2)
	in := redeemCode("HELD-B")
	in.Session = &SessionInput{Type: graphtest.Ptr("LOCK"), Key: graphtest.Ptr("someone-else")}
	if res, err := ValidateStacked(ctx2, in); err != nil || !res.Valid {
		t.Fatalf("session lock: %+v, %v", res, err)
	}
	for i, c := range []context.Context{ctx, ctx2} {
		if _, err := customerpkg.UpsertCustomer(c, customerpkg.CustomerInput{SourceID: graphtest.Ptr("shopper"),
			Metadata: map[string]any{"project": i}}); err != nil {
			t.Fatal(err)
		}
	}
	bySource := func(s string) *customerRef { return &customerRef{value: s} }
	cases := []lookupCase{
		{ctx, []string{"SAME"}, nil},
		{ctx2, []string{"SAME"}, nil},
		{ctx, []string{"ONLY-B"}, nil}, // another project's code: not found
		{ctx, []string{"MORE", "SAME", "ALSO", "MORE"}, bySource("shopper")},
		{ctx2, []string{"SAME", "HELD-B"}, bySource("shopper")},
		{ctx2, []string{"ONLY-B"}, bySource("nobody")},
		{ctx, []string{"NONE"}, bySource("shopper")},
		{ctx2, []string{"HELD-B"}, nil},
	}
	now := time.Now()
	// Alone first, for the answers to compare with.
	CombineLookups = false
	want := make([]lookedUpSummary, len(cases))
	for i, c := range cases {
		res, err := lookupVouchers(c.ctx, c.codes, false, true, c.cust, now)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = summarize(res)
	}
	CombineLookups = true
	var sent []int
	beforeCombinedLookup = func(_ context.Context, n int) { sent = append(sent, n) }
	stmts, members := CombinedLookupCounts()
	got, errs := lookUpQueued(t, cases, now)
	if s, m := CombinedLookupCounts(); s-stmts != 1 || m-members != int64(len(cases)) || !reflect.DeepEqual(sent, []int{len(cases)}) {
		t.Errorf("%d combined look-ups of %d members (sent %v), want 1 of %d", s-stmts, m-members, sent, len(cases))
	}
	for i := range cases {
		if errs[i] != nil {
			t.Fatalf("look-up %d: %v", i, errs[i])
		}
		if g := summarize(got[i]); !reflect.DeepEqual(g, want[i]) {
			t.Errorf("look-up %d %v combined:\n%+v\nalone:\n%+v", i, cases[i].codes, g, want[i])
		}
	}
	// The checks of the test itself: the cases differ as intended.
	if len(want[2].Vouchers) != 0 || len(want[3].Vouchers) != 3 || !want[3].CustomerRead || want[6].CustomerRead ||
		want[5].Customer != "" || !want[5].CustomerRead || want[3].CustomerMetadata == want[4].CustomerMetadata ||
		!strings.Contains(want[7].Vouchers[0], "held=true{units:1") || !strings.Contains(want[0].Vouchers[0], "rules=true") ||
		!strings.Contains(want[1].Vouchers[0], "webhooks=true") || strings.Contains(want[0].Vouchers[0], "webhooks=true") {
		t.Errorf("unexpected alone answers: %+v", want)
	}
}

// TestCombinedLookUpLeavesOutAGoneCaller: a look-up whose request has gone
// while it was queued answers its context's error; the others are read,
// each as alone.
func TestCombinedLookUpLeavesOutAGoneCaller(t *testing.T) {
	combiningLookups(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "A1", "A2", "A3")
	gone, cancel := context.WithCancel(ctx)
	cancel()
	now := time.Now()
	got, errs := lookUpQueued(t, []lookupCase{{ctx, []string{"A1"}, nil}, {gone, []string{"A2"}, nil},
		{ctx, []string{"A3"}, nil}}, now)
	if errs[1] == nil || errs[0] != nil || errs[2] != nil {
		t.Fatalf("errors %v, want only the gone caller's", errs)
	}
	for i, code := range map[int]string{0: "A1", 2: "A3"} {
		if len(got[i].vouchers) != 1 || got[i].vouchers[0].voucher.Code != code {
			t.Errorf("look-up %d: %+v, want %s", i, summarize(got[i]), code)
		}
	}
}

// TestCombinedLookUpFailureLooksUpAlone: a combined statement that fails
// (here: PostgreSQL refuses it) makes every member look up alone,
// and each still gets its answer.
func TestCombinedLookUpFailureLooksUpAlone(t *testing.T) {
	combiningLookups(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "B1", "B2")
	// The hook makes the combined statement one PostgreSQL refuses.
	stmts, _ := CombinedLookupCounts()
	failed := false
	beforeCombinedLookup = func(context.Context, int) { failed = true; forceLookupFailure = true }
	t.Cleanup(func() { forceLookupFailure = false })
	got, errs := lookUpQueued(t, []lookupCase{{ctx, []string{"B1"}, nil}, {ctx, []string{"B2"}, nil}}, time.Now())
	if !failed {
		t.Fatal("no combined look-up was sent")
	}
	if s, _ := CombinedLookupCounts(); s != stmts {
		t.Errorf("a failed combined look-up was counted")
	}
	for i, code := range []string{"B1", "B2"} {
		if errs[i] != nil || len(got[i].vouchers) != 1 || got[i].vouchers[0].voucher.Code != code {
			t.Errorf("look-up %d: %v, %+v, want %s", i, errs[i], summarize(got[i]), code)
		}
	}
}

// TestParallelRedemptionsOfTwoProjectsCombineLookUps: redemptions of two
// projects racing with real parallelism (no lane held) — the same codes
// in both, and codes only the second has, asked for in the first — each
// answered as alone: every code redeemed once in each project, each
// redemption of its own project's voucher, the other project's codes not
// found and left untouched.
func TestParallelRedemptionsOfTwoProjectsCombineLookUps(t *testing.T) {
	combiningLookups(t)
	db, ctx := graphtest.ProjectContext(t)
	other := db.Client.Project.Create().SetName("other").SetFeatures(feature.All).SaveX(ctx)
	ctx2 := viewer.NewContext(ctx, viewer.Viewer{ProjectID: other.ID})
	const n = 16
	var codes, onlyB []string
	for i := 0; i < n; i++ {
		codes = append(codes, fmt.Sprintf("PAR-%d", i))
	}
	for i := 0; i < 6; i++ {
		onlyB = append(onlyB, fmt.Sprintf("ONLY-B-%d", i))
	}
	campaigntest.WithCodes(t, ctx, "promo", codes...)
	campaigntest.WithCodes(t, ctx2, "promo", append(append([]string{}, codes...), onlyB...)...)
	stmts, members := CombinedLookupCounts()
	type call struct {
		ctx  context.Context
		code string
	}
	var calls []call
	for _, code := range codes {
		calls = append(calls, call{ctx, code}, call{ctx2, code})
	}
	for _, code := range onlyB {
		calls = append(calls, call{ctx, code})
	}
	out, errs := make([]*StackedRedemptionResult, len(calls)), make([]error, len(calls))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i], errs[i] = RedeemStacked(c.ctx, redeemCode(c.code))
		}()
	}
	close(start)
	wg.Wait()
	for i, c := range calls {
		p, _ := viewer.FromContext(c.ctx)
		if strings.HasPrefix(c.code, "ONLY-B") {
			if errs[i] == nil && out[i].Failure == nil {
				t.Errorf("%s in the first project: %+v, want not found", c.code, out[i])
			}
			continue
		}
		if errs[i] != nil || out[i].Failure != nil || len(out[i].Redemptions) != 1 {
			t.Fatalf("%s in %s: %v, %+v", c.code, p.ProjectID, errs[i], out[i])
		}
		r := db.Client.Redemption.GetX(c.ctx, out[i].Redemptions[0].ID)
		v := db.Client.Voucher.GetX(c.ctx, *r.VoucherID)
		if r.ProjectID != p.ProjectID || v.ProjectID != p.ProjectID || v.Code != c.code || v.RedeemedQuantity != 1 {
			t.Errorf("%s in %s: redemption of project %s, voucher %s of project %s redeemed %d",
				c.code, p.ProjectID, r.ProjectID, v.Code, v.ProjectID, v.RedeemedQuantity)
		}
	}
	for _, code := range onlyB {
		if q := redeemedCount(t, ctx2, code); q != 0 {
			t.Errorf("%s of the second project redeemed %d times, want 0", code, q)
		}
	}
	s, m := CombinedLookupCounts()
	t.Logf("%d combined look-ups of %d members", s-stmts, m-members)
}

package redemption

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// TestParallelStackedRedemptionsOfLimitedCodesInTwoProjects: stacked
// redemptions of three codes race, with real parallelism, over the same
// quantity-limited codes in two projects, their look-ups and writes
// combined (one lane each, so that they queue). Each stack names two codes
// of its own (one unit each) and one of three shared codes (two units
// each, four stacks asking): every unit is redeemed at most once — a
// code's counter, its stored successful redemptions and the successful
// stacks naming it agree —; a stack that fails (a shared code used up, or
// a code its project does not have) writes nothing, its own codes
// untouched; and every redemption is of its own project's voucher.
func TestParallelStackedRedemptionsOfLimitedCodesInTwoProjects(t *testing.T) {
	combining(t)
	combiningLookups(t)
	db, ctx := graphtest.ProjectContext(t)
	other := db.Client.Project.Create().SetName("other").SetFeatures(feature.All).SaveX(ctx)
	ctx2 := viewer.NewContext(ctx, viewer.Viewer{ProjectID: other.ID})
	const shared, sharedUnits, stacks = 3, 2, 12
	var all []string
	for i := 0; i < shared; i++ {
		all = append(all, fmt.Sprintf("S-%d", i))
	}
	for k := 0; k < stacks; k++ {
		all = append(all, fmt.Sprintf("O-%d-a", k), fmt.Sprintf("O-%d-b", k))
	}
	for _, c := range []context.Context{ctx, ctx2} {
		campaigntest.WithCodes(t, c, "promo")
		for i := 0; i < shared; i++ {
			limitedCodeN(t, c, "promo", fmt.Sprintf("S-%d", i), sharedUnits)
		}
		for k := 0; k < stacks; k++ {
			limitedCode(t, c, "promo", fmt.Sprintf("O-%d-a", k))
			limitedCode(t, c, "promo", fmt.Sprintf("O-%d-b", k))
		}
	}
	campaigntest.WithCodes(t, ctx2, "extra", "X") // the second project's only
	type call struct {
		ctx   context.Context
		codes []string
	}
	var calls []call
	for k := 0; k < stacks; k++ {
		for _, c := range []context.Context{ctx, ctx2} {
			names := []string{fmt.Sprintf("O-%d-a", k), fmt.Sprintf("S-%d", k%shared), fmt.Sprintf("O-%d-b", k)}
			if k%4 == 3 {
				names = append(names, "X")
			}
			calls = append(calls, call{c, names})
		}
	}
	stmts, members := CombinedCounts()
	lookups, looked := CombinedLookupCounts()
	out, errs := make([]*StackedRedemptionResult, len(calls)), make([]error, len(calls))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i], errs[i] = RedeemStacked(c.ctx, redeemCodes(c.codes...))
		}()
	}
	// The write lane is held until several batches queue behind it, so
	// that they go out as combined statements (the rest race as they come).
	queued, release := holdLane(t, ctx)
	close(start)
	deadline := time.Now().Add(5 * time.Second)
	for queued() < 6 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	release()
	wg.Wait()

	for _, c := range []context.Context{ctx, ctx2} {
		p, _ := viewer.FromContext(c)
		succeeded := map[string]int{}
		for i, call := range calls {
			if call.ctx != c {
				continue
			}
			if errs[i] != nil {
				t.Fatalf("%v in %s: %v", call.codes, p.ProjectID, errs[i])
			}
			if out[i].Failure != nil {
				continue
			}
			if c == ctx && len(call.codes) == 4 {
				t.Errorf("%v in the first project succeeded; X is not its code", call.codes)
			}
			if len(out[i].Redemptions) != len(call.codes) {
				t.Fatalf("%v in %s: %d redemptions", call.codes, p.ProjectID, len(out[i].Redemptions))
			}
			for _, r := range out[i].Redemptions {
				stored := db.Client.Redemption.GetX(c, r.ID)
				v := db.Client.Voucher.GetX(c, *stored.VoucherID)
				if stored.ProjectID != p.ProjectID || v.ProjectID != p.ProjectID {
					t.Errorf("%s in %s: redemption of project %s, voucher of project %s", v.Code, p.ProjectID, stored.ProjectID, v.ProjectID)
				}
				succeeded[v.Code]++
			}
		}
		total := 0
		for _, code := range all {
			units := 1
			if code[0] == 'S' {
				units = sharedUnits
			}
			q, s := redeemedCount(t, c, code), storedRedemptions(t, c, code, redemption.ResultSUCCESS)
			if q > units || q != s || q != succeeded[code] {
				t.Errorf("%s in %s: redeemed_quantity %d, %d successful redemptions stored, %d answered; want equal and ≤ %d",
					code, p.ProjectID, q, s, succeeded[code], units)
			}
			total += q
		}
		if total == 0 {
			t.Errorf("%s: no stack succeeded", p.ProjectID)
		}
		if c == ctx2 {
			if q := redeemedCount(t, c, "X"); q != succeeded["X"] {
				t.Errorf("X: redeemed_quantity %d, %d answered", q, succeeded["X"])
			}
		}
	}
	s, m := CombinedCounts()
	ls, lm := CombinedLookupCounts()
	t.Logf("%d combined statements of %d members, %d combined look-ups of %d", s-stmts, m-members, ls-lookups, lm-looked)
}

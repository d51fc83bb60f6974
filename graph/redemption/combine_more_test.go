package redemption

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestCombinedStackedRedemptionsOfGiftCardsAndCodes: members of several
// codes — a gift card (its balance and transaction) and a discount code
// each — combine too, and each answers and stores what a lone one does.
func TestCombinedStackedRedemptionsOfGiftCardsAndCodes(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "codes", "D0", "D1", "D2", "D3")
	gift, static := entcampaign.CampaignTypeGIFT_VOUCHERS, entcampaign.TypeSTATIC
	if err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := campaignpkg.CreateCampaign(ctx, campaignpkg.CreateCampaignInput{Name: "cards", CampaignType: &gift, Type: &static,
			Voucher: &jsonfield.VoucherProfile{Type: "GIFT_VOUCHER", Gift: &jsonfield.Gift{Amount: 5000}}}); err != nil {
			return err
		}
		for _, code := range []string{"G0", "G1", "G2", "G3"} {
			if _, err := campaignpkg.AddVoucher(ctx, "cards", &campaignpkg.AddVouchersInput{Code: &code}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	lone, err := RedeemStacked(ctx, redeemCodes("G0", "D0"))
	if err != nil || lone.Failure != nil {
		t.Fatalf("lone: %v, %+v", err, lone)
	}
	stmts, members := CombinedCounts()
	out, errs := redeemQueued(t, ctx, []StackedRedemptionInput{redeemCodes("G1", "D1"), redeemCodes("D2", "G2"), redeemCodes("G3", "D3")})
	if s, m := CombinedCounts(); s-stmts != 1 || m-members != 3 {
		t.Errorf("%d combined statements of %d members, want 1 of 3", s-stmts, m-members)
	}
	shown := func(r *StackedRedemptionResult) map[string]any {
		return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions, "order": r.Order})
	}
	c := ent.FromContext(ctx)
	for i, res := range out {
		if errs[i] != nil || res.Failure != nil {
			t.Fatalf("member %d: %v, %+v", i, errs[i], res)
		}
		if i != 1 { // member 1 names its codes in the other order
			if got, want := shown(res), shown(lone); !reflect.DeepEqual(got, want) {
				t.Errorf("member %d answered\n%v\na lone redemption answered\n%v", i, got, want)
			}
		}
	}
	for i := 0; i < 4; i++ {
		g := c.Voucher.Query().Where(voucher.Code(fmt.Sprintf("G%d", i))).OnlyX(ctx)
		if g.RedeemedQuantity != 1 || g.Gift == nil || (i != 2 && g.Gift.Balance != 4000) || (i == 2 && g.Gift.Balance != 4100) {
			t.Errorf("G%d: redeemed %d, gift %+v; want 1 and a balance of 4000 (4100 after D2's discount)", i, g.RedeemedQuantity, g.Gift)
		}
		if n := c.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(g.ID)).CountX(ctx); n != 1 {
			t.Errorf("G%d: %d transactions, want 1", i, n)
		}
		if d := redeemedCount(t, ctx, fmt.Sprintf("D%d", i)); d != 1 {
			t.Errorf("D%d: redeemed %d, want 1", i, d)
		}
	}
}

// TestCombinedRedemptionOfAClientGone: a queued request whose client goes
// away is left out of the statement (it answers its context's error and
// writes nothing); the others are written.
func TestCombinedRedemptionOfAClientGone(t *testing.T) {
	combining(t)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "A-0", "A-1", "A-2")
	stmts, members := CombinedCounts()
	queued, release := holdLane(t, ctx)
	gone, cancel := context.WithCancel(ctx)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := ctx
			if i == 1 {
				c = gone
			}
			_, errs[i] = RedeemStacked(c, redeemCode(fmt.Sprintf("A-%d", i)))
		}()
	}
	for deadline := time.Now().Add(20 * time.Second); queued() < 3 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	cancel()
	release()
	wg.Wait()
	if errs[0] != nil || errs[2] != nil || errs[1] == nil {
		t.Errorf("answers %v; want A-1's to fail alone", errs)
	}
	for i, want := range []int{1, 0, 1} {
		if k := redeemedCount(t, ctx, fmt.Sprintf("A-%d", i)); k != want {
			t.Errorf("A-%d: redeemed_quantity %d, want %d", i, k, want)
		}
	}
	if s, m := CombinedCounts(); s-stmts != 1 || m-members != 2 {
		t.Errorf("%d combined statements of %d members, want 1 of 2", s-stmts, m-members)
	}
}

// TestCombinedRedemptionsOfTwoProjects: members of two projects share a
// statement, each row written with its own project: the same code and
// the same customer source_id in both projects, each redeemed in its own.
func TestCombinedRedemptionsOfTwoProjects(t *testing.T) {
	combining(t)
	db, ctx := graphtest.ProjectContext(t)
	other := db.Client.Project.Create().SetName("other").SetFeatures(feature.All).SaveX(ctx)
	ctx2 := viewer.NewContext(ctx, viewer.Viewer{ProjectID: other.ID})
	for _, c := range []context.Context{ctx, ctx2} {
		campaigntest.WithCodes(t, c, "promo", "SAME", "MORE")
	}
	stmts, members := CombinedCounts()
	out, errs := redeemQueuedIn(t, []context.Context{ctx, ctx2, ctx2},
		[]StackedRedemptionInput{redeemAs("SAME", "shopper", "pro"), redeemAs("SAME", "shopper", "pro"), redeemCode("MORE")})
	if s, m := CombinedCounts(); s-stmts != 1 || m-members != 3 {
		t.Errorf("%d combined statements of %d members, want 1 of 3", s-stmts, m-members)
	}
	for i, c := range []context.Context{ctx, ctx2, ctx2} {
		if errs[i] != nil || out[i].Failure != nil {
			t.Fatalf("member %d: %v, %+v", i, errs[i], out[i])
		}
		p, _ := viewer.FromContext(c)
		// Each project's reads see its own rows only.
		r := db.Client.Redemption.GetX(c, out[i].Redemptions[0].ID)
		o := db.Client.Order.GetX(c, *r.OrderID)
		v := db.Client.Voucher.GetX(c, *r.VoucherID)
		if r.ProjectID != p.ProjectID || o.ProjectID != p.ProjectID || v.ProjectID != p.ProjectID || v.RedeemedQuantity != 1 {
			t.Errorf("member %d: redemption, order, voucher of projects %s, %s, %s (redeemed %d); want %s and 1",
				i, r.ProjectID, o.ProjectID, v.ProjectID, v.RedeemedQuantity, p.ProjectID)
		}
		if i < 2 {
			cu := db.Client.Customer.GetX(c, *r.CustomerID)
			if cu.ProjectID != p.ProjectID || cu.SourceID == nil || *cu.SourceID != "shopper" {
				t.Errorf("member %d: customer %+v, want shopper of project %s", i, cu, p.ProjectID)
			}
		}
	}
	for _, c := range []context.Context{ctx, ctx2} {
		if n := db.Client.Customer.Query().Where(customer.SourceID("shopper")).CountX(c); n != 1 {
			t.Errorf("%d customers shopper in a project, want 1", n)
		}
	}
}

package redemption

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// redeemCodes is a stacked redemption of codes with a 1000 order.
func redeemCodes(codes ...string) StackedRedemptionInput {
	in := StackedRedemptionInput{Order: &OrderInput{Amount: graphtest.Ptr(int64(1000))}}
	for _, c := range codes {
		in.Redeemables = append(in.Redeemables, &RedeemableInput{Object: graphtest.Ptr("voucher"), ID: c})
	}
	return in
}

// TestOneStatementRedemptionOfSeveralCodes: a stacked redemption of three
// codes is one statement too, and answers and stores what the
// transactional path does.
func TestOneStatementRedemptionOfSeveralCodes(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	_, ctx := graphtest.ProjectContext(t)
	for _, c := range []struct{ campaign, fast, slow string }{{"a", "A1", "A2"}, {"b", "B1", "B2"}, {"c", "C1", "C2"}} {
		campaigntest.WithCodes(t, ctx, c.campaign, c.fast, c.slow)
	}
	fast, err := RedeemStacked(ctx, redeemCodes("C1", "A1", "B1"))
	if err != nil || served != 1 || fast.Failure != nil || len(fast.Redemptions) != 3 {
		t.Fatalf("one statement: served %d, err %v, result %+v", served, err, fast)
	}
	redemptionPaths(t, true, nil, nil)
	slow, err := RedeemStacked(ctx, redeemCodes("C2", "A2", "B2"))
	if err != nil || slow.Failure != nil {
		t.Fatalf("transactional path: err %v, result %+v", err, slow)
	}
	shown := func(r *StackedRedemptionResult) map[string]any {
		return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions, "order": r.Order})
	}
	if got, want := shown(fast), shown(slow); !reflect.DeepEqual(got, want) {
		t.Errorf("one statement returned\n%v\ntransactional path returned\n%v", got, want)
	}
	// The children keep the request's order (C, A, B), whatever order the
	// vouchers were updated in.
	for i, code := range []string{"C1", "A1", "B1"} {
		if got := *fast.Redemptions[i].VoucherCode; got != code {
			t.Errorf("child %d is %s, want %s", i, got, code)
		}
	}
	c := ent.FromContext(ctx)
	stored := func(r *StackedRedemptionResult) map[string]any {
		parent := c.Redemption.GetX(ctx, r.ParentRedemption.ID)
		children := c.Redemption.Query().Where(redemption.ParentID(parent.ID)).Order(ent.Asc(redemption.FieldVoucherCode)).AllX(ctx)
		o := c.Order.Query().Where(order.ID(*parent.OrderID)).OnlyX(ctx)
		return graphtest.Comparable(t, map[string]any{"parent": parent, "children": children, "order": o})
	}
	if got, want := stored(fast), stored(slow); !reflect.DeepEqual(got, want) {
		t.Errorf("one statement stored\n%v\ntransactional path stored\n%v", got, want)
	}
	for _, code := range []string{"A1", "B1", "C1", "A2", "B2", "C2"} {
		if n := redeemedCount(t, ctx, code); n != 1 {
			t.Errorf("%s: redeemed_quantity %d, want 1", code, n)
		}
	}
}

// TestOneStatementRedemptionsOfTheSameCodesRace: 24 concurrent stacked
// redemptions of the same three codes, each limited to 5, named in a
// random order by each request: exactly 5 succeed, the others answer
// quantity_exceeded, no request errs (a deadlock or a lost guard falls
// back to the transactional path), and the counters end at 5.
func TestOneStatementRedemptionsOfTheSameCodesRace(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	var mu sync.Mutex
	RunRedemptionBatch = func(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
		err := b.Run(ctx, c)
		if err == nil {
			mu.Lock()
			served++
			mu.Unlock()
		}
		return err
	}
	_, ctx := graphtest.ProjectContext(t)
	codes := []string{"RA", "RB", "RC"}
	for _, code := range codes {
		campaigntest.WithCodes(t, ctx, "race"+code)
		limitedCodeN(t, ctx, "race"+code, code, 5)
	}
	var wg sync.WaitGroup
	var ok, exceeded, failed int
	for g := 0; g < 24; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			order := append([]string(nil), codes...)
			rand.New(rand.NewSource(seed)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			res, err := RedeemStacked(ctx, redeemCodes(order...))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				failed++
				t.Errorf("request erred: %v", err)
			case res.Failure == nil:
				ok++
			default:
				exceeded++
			}
		}(int64(g))
	}
	wg.Wait()
	if ok != 5 || exceeded != 19 || failed != 0 {
		t.Errorf("%d succeeded, %d refused, %d erred; want 5, 19, 0", ok, exceeded, failed)
	}
	for _, code := range codes {
		if n := redeemedCount(t, ctx, code); n != 5 {
			t.Errorf("%s: redeemed_quantity %d, want 5", code, n)
		}
	}
	t.Logf("%d of 5 successes were one statement", served)
}

// TestOneStatementRedemptionOfAGiftCardAndACode: the vouchers of a stacked
// request are one UPDATE, which sets the gift card's new balance and
// leaves the other voucher's gift alone; answered and stored as the
// transactional path does.
func TestOneStatementRedemptionOfAGiftCardAndACode(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "codes", "D1", "D2")
	gift, static := entcampaign.CampaignTypeGIFT_VOUCHERS, entcampaign.TypeSTATIC
	if err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := campaignpkg.CreateCampaign(ctx, campaignpkg.CreateCampaignInput{Name: "cards", CampaignType: &gift, Type: &static,
			Voucher: &jsonfield.VoucherProfile{Type: "GIFT_VOUCHER", Gift: &jsonfield.Gift{Amount: 5000}}}); err != nil {
			return err
		}
		for _, code := range []string{"G1", "G2"} {
			if _, err := campaignpkg.AddVoucher(ctx, "cards", &campaignpkg.AddVouchersInput{Code: &code}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	fast, err := RedeemStacked(ctx, redeemCodes("G1", "D1"))
	if err != nil || served != 1 || fast.Failure != nil || len(fast.Redemptions) != 2 {
		t.Fatalf("one statement: served %d, err %v, result %+v", served, err, fast)
	}
	redemptionPaths(t, true, nil, nil)
	slow, err := RedeemStacked(ctx, redeemCodes("G2", "D2"))
	if err != nil || slow.Failure != nil {
		t.Fatalf("transactional path: err %v, result %+v", err, slow)
	}
	shown := func(r *StackedRedemptionResult) map[string]any {
		return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions, "order": r.Order})
	}
	if got, want := shown(fast), shown(slow); !reflect.DeepEqual(got, want) {
		t.Errorf("one statement returned\n%v\ntransactional path returned\n%v", got, want)
	}
	c := ent.FromContext(ctx)
	voucherOf := func(code string) *ent.Voucher { return c.Voucher.Query().Where(voucher.Code(code)).OnlyX(ctx) }
	for _, pair := range [][2]string{{"G1", "G2"}, {"D1", "D2"}} {
		a, b := voucherOf(pair[0]), voucherOf(pair[1])
		if a.RedeemedQuantity != 1 || b.RedeemedQuantity != 1 || !reflect.DeepEqual(a.Gift, b.Gift) {
			t.Errorf("%s: redeemed %d, gift %+v; %s: redeemed %d, gift %+v", pair[0], a.RedeemedQuantity, a.Gift, pair[1], b.RedeemedQuantity, b.Gift)
		}
	}
	if g := voucherOf("G1").Gift; g == nil || g.Balance != 5000-1000 {
		t.Errorf("G1's gift after the redemption: %+v, want a balance of 4000 (the whole 1000 order, the gift applied first)", g)
	}
	if d := voucherOf("D1"); d.Gift != nil {
		t.Errorf("D1 got a gift: %+v", d.Gift)
	}
}

// TestOneStatementRedemptionStoresTheSameLines: an order with lines —
// plain ones (bound as encoded once: plainLines) and ones with metadata
// (decoded and encoded again) — is answered and stored by the one
// statement exactly as by the transactional path: the order's items,
// redemptions and calculated document, and the redemptions' orders.
func TestOneStatementRedemptionStoresTheSameLines(t *testing.T) {
	served := 0
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "lines", "FAST1", "SLOW1", "FAST2", "SLOW2")
	line := func(source string, qty Quantity, price int64, md map[string]any) *OrderItemInput {
		return &OrderItemInput{SourceID: graphtest.Ptr(source), RelatedObject: graphtest.Ptr("product"),
			Quantity: &qty, Price: graphtest.Ptr(price), Metadata: md}
	}
	for i, items := range [][]*OrderItemInput{
		{line("l<1>", 2, 1500, nil), line("l2", 1, 4000, nil)},
		{line("l1", 2, 1500, map[string]any{"size": json.Number("1.0"), "tag": "a&b"}), line("l2", 3, 250, nil)},
	} {
		in := func(code string) StackedRedemptionInput {
			return StackedRedemptionInput{Redeemables: []*RedeemableInput{{Object: graphtest.Ptr("voucher"), ID: code}},
				Order: &OrderInput{Items: items, Metadata: map[string]any{"n": json.Number("2")}}}
		}
		redemptionPaths(t, false, &served, nil)
		fast, err := RedeemStacked(ctx, in(fmt.Sprintf("FAST%d", i+1)))
		if err != nil || served != i+1 || fast.Failure != nil {
			t.Fatalf("one statement: served %d, err %v, failure %+v", served, err, fast)
		}
		redemptionPaths(t, true, nil, nil)
		slow, err := RedeemStacked(ctx, in(fmt.Sprintf("SLOW%d", i+1)))
		if err != nil || slow.Failure != nil {
			t.Fatalf("transactional path: err %v, failure %+v", err, slow)
		}
		shown := func(r *StackedRedemptionResult) map[string]any {
			return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions, "order": r.Order})
		}
		if got, want := shown(fast), shown(slow); !reflect.DeepEqual(got, want) {
			t.Errorf("lines %d: one statement returned\n%v\ntransactional path returned\n%v", i+1, got, want)
		}
		c := ent.FromContext(ctx)
		stored := func(r *StackedRedemptionResult) map[string]any {
			child := c.Redemption.GetX(ctx, r.Redemptions[0].ID)
			o := c.Order.Query().Where(order.ID(*child.OrderID)).OnlyX(ctx)
			if len(o.Items) != len(items) {
				t.Errorf("lines %d: %d lines stored, want %d", i+1, len(o.Items), len(items))
			}
			// The redemptions map (masked by Comparable): the parent's
			// entry, in the column and in the calculated document alike.
			entry, _ := o.Redemptions[r.ParentRedemption.ID].(map[string]any)
			if stacked, _ := entry["stacked"].([]any); len(o.Redemptions) != 1 || entry["related_object_id"] != r.ParentRedemption.ID ||
				entry["related_object_type"] != "redemption" || entry["date"] == nil || len(stacked) != 1 || stacked[0] != child.ID {
				t.Errorf("lines %d: redemptions %v", i+1, o.Redemptions)
			}
			var calc struct{ Redemptions map[string]any }
			if err := json.Unmarshal(o.Calculated, &calc); err != nil || !reflect.DeepEqual(calc.Redemptions, o.Redemptions) {
				t.Errorf("lines %d: calculated redemptions %v (%v), column %v", i+1, calc.Redemptions, err, o.Redemptions)
			}
			return graphtest.Comparable(t, map[string]any{"parent": c.Redemption.GetX(ctx, r.ParentRedemption.ID),
				"child": child, "order": o})
		}
		if got, want := stored(fast), stored(slow); !reflect.DeepEqual(got, want) {
			t.Errorf("lines %d: one statement stored\n%v\ntransactional path stored\n%v", i+1, got, want)
		}
	}
}

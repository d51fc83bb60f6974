package redemption

import (
	"context"
	"reflect"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/order"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
)

// redeemAs is a redemption of code by the customer with source_id src,
// with a name and metadata, and redemption metadata.
func redeemAs(code, src, plan string) StackedRedemptionInput {
	in := redeemCode(code)
	in.Customer = &customerpkg.CustomerInput{SourceID: &src, Name: graphtest.Ptr("Ann " + plan),
		Metadata: map[string]any{"plan": plan}}
	in.Metadata = map[string]any{"channel": "web"}
	return in
}

// TestOneStatementRedemptionUpsertsItsCustomer: a redemption naming its
// customer by source_id — new, then known with a new profile — is one
// statement, and answers and stores what the transactional path does: the
// customer as the upsert leaves it, checked by a rule on its metadata.
func TestOneStatementRedemptionUpsertsItsCustomer(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	_, ctx := graphtest.ProjectContext(t)
	cmp := campaigntest.WithCodes(t, ctx, "promo")
	for _, code := range []string{"FAST-1", "FAST-2", "SLOW-1", "SLOW-2", "FAST-3"} {
		limitedCodeN(t, ctx, "promo", code, 10)
	}
	// Only customers whose (new) metadata says "pro" may redeem.
	if err := store.InTx(ctx, func(ctx context.Context) error {
		rule, err := validationrules.CreateValidationRule(ctx, validationrules.ValidationRuleInput{Name: graphtest.Ptr("pro only"), Rules: map[string]any{
			"1": map[string]any{"name": "customer.metadata", "property": "plan",
				"conditions": map[string]any{"$is": []any{"pro"}}, "rules": map[string]any{}}, "logic": "1"}})
		if err != nil {
			return err
		}
		_, err = validationrules.AssignValidationRule(ctx, rule.ID, validationrules.RuleAssignmentInput{Campaign: &cmp.ID})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	c := ent.FromContext(ctx)
	type run struct{ created, updated *StackedRedemptionResult }
	both := map[bool]*run{}
	for _, fast := range []bool{true, false} {
		redemptionPaths(t, !fast, &served, nil)
		prefix, src := "SLOW-", "slow-shopper"
		if fast {
			prefix, src = "FAST-", "fast-shopper"
		}
		before := served
		created, err := RedeemStacked(ctx, redeemAs(prefix+"1", src, "pro"))
		if err != nil || created.Failure != nil {
			t.Fatalf("%s, a new customer: err %v, failure %+v", prefix, err, created)
		}
		// Known now; the rule sees the metadata this request sets.
		updated, err := RedeemStacked(ctx, redeemAs(prefix+"2", src, "pro"))
		if err != nil || updated.Failure != nil {
			t.Fatalf("%s, a known customer: err %v, failure %+v", prefix, err, updated)
		}
		if fast && served-before != 2 {
			t.Fatalf("one statement: %d batches served, want 2", served-before)
		}
		both[fast] = &run{created, updated}
	}
	shown := func(r *StackedRedemptionResult) map[string]any {
		return graphtest.Comparable(t, map[string]any{"parent": r.ParentRedemption, "redemptions": r.Redemptions,
			"order": r.Order, "customer": r.Redemptions[0].Edges.Customer})
	}
	stored := func(r *StackedRedemptionResult) map[string]any {
		parent := c.Redemption.GetX(ctx, r.ParentRedemption.ID)
		child := c.Redemption.GetX(ctx, r.Redemptions[0].ID)
		o := c.Order.Query().Where(order.ID(*child.OrderID)).OnlyX(ctx)
		cust := c.Customer.GetX(ctx, *child.CustomerID)
		if *o.CustomerID != cust.ID || *parent.CustomerID != cust.ID {
			t.Errorf("order %v, parent %v: not the child's customer %s", o.CustomerID, parent.CustomerID, cust.ID)
		}
		return graphtest.Comparable(t, map[string]any{"parent": parent, "child": child, "order": o, "customer": cust})
	}
	for _, pick := range []func(*run) *StackedRedemptionResult{
		func(r *run) *StackedRedemptionResult { return r.created },
		func(r *run) *StackedRedemptionResult { return r.updated },
	} {
		fast, slow := pick(both[true]), pick(both[false])
		if got, want := shown(fast), shown(slow); !reflect.DeepEqual(got, want) {
			t.Errorf("one statement returned\n%v\ntransactional path returned\n%v", got, want)
		}
		if got, want := stored(fast), stored(slow); !reflect.DeepEqual(got, want) {
			t.Errorf("one statement stored\n%v\ntransactional path stored\n%v", got, want)
		}
	}
	// What the statement returned last is what is stored, to the millisecond.
	last := both[true].updated.Redemptions[0].Edges.Customer
	if got, want := graphtest.Comparable(t, last), graphtest.Comparable(t, c.Customer.GetX(ctx, last.ID)); !reflect.DeepEqual(got, want) {
		t.Errorf("returned customer\n%v\nstored\n%v", got, want)
	}
	if got := c.Customer.GetX(ctx, last.ID); !got.UpdatedAt.Equal(*last.UpdatedAt) || !got.CreatedAt.Equal(last.CreatedAt) {
		t.Errorf("stored times %v %v, returned %v %v", got.CreatedAt, got.UpdatedAt, last.CreatedAt, last.UpdatedAt)
	}
	for _, src := range []string{"fast-shopper", "slow-shopper"} {
		if n := c.Customer.Query().Where(customer.SourceID(src)).CountX(ctx); n != 1 {
			t.Errorf("%s: %d customers, want 1", src, n)
		}
	}
	if a, b := both[true].created.Redemptions[0].Edges.Customer.ID, both[true].updated.Redemptions[0].Edges.Customer.ID; a != b {
		t.Errorf("the known customer got a new id: %s, then %s", a, b)
	}

	// A profile the rule refuses fails on the transactional path, which
	// records the failure; the customer's new metadata is stored with it.
	redemptionPaths(t, false, &served, nil)
	before := served
	res, err := RedeemStacked(ctx, redeemAs("FAST-3", "fast-shopper", "free"))
	if err != nil || res.Failure == nil || res.Failure.Key != "customer_rules_violated" || served != before {
		t.Fatalf("a refused customer: err %v, failure %+v, served %d (want no batch)", err, res.Failure, served-before)
	}
}

// TestOneStatementRedemptionLosesANewCustomerToAnotherRequest: another
// request creates the customer's source_id between the guarded read and
// the write. The statement's INSERT then violates the unique index, so it
// writes nothing; the transactional path finds that customer and redeems
// with it: one customer row, one redemption.
func TestOneStatementRedemptionLosesANewCustomerToAnotherRequest(t *testing.T) {
	served := 0
	db, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "RACE")
	var other *ent.Customer
	redemptionPaths(t, false, &served, func(context.Context) {
		if other != nil {
			return
		}
		var err error
		other, err = customerpkg.UpsertCustomer(ctx, customerpkg.CustomerInput{SourceID: graphtest.Ptr("racer")})
		if err != nil {
			t.Error(err)
		}
	})
	orders := db.Client.Order.Query().CountX(ctx)
	res, err := RedeemStacked(ctx, redeemAs("RACE", "racer", "pro"))
	if err != nil || res.Failure != nil {
		t.Fatalf("err %v, failure %+v", err, res)
	}
	if served != 0 {
		t.Errorf("%d batches served, want 0 (the insert lost)", served)
	}
	if got := *res.Redemptions[0].CustomerID; other == nil || got != other.ID {
		t.Errorf("redeemed as %s, want the other request's customer %v", got, other)
	}
	if n := db.Client.Customer.Query().Where(customer.SourceID("racer")).CountX(ctx); n != 1 {
		t.Errorf("%d customers with the source_id, want 1", n)
	}
	if n := db.Client.Order.Query().CountX(ctx) - orders; n != 1 {
		t.Errorf("%d orders stored, want 1", n)
	}
	if n := redeemedCount(t, ctx, "RACE"); n != 1 {
		t.Errorf("redeemed_quantity %d, want 1", n)
	}
	got := db.Client.Customer.GetX(ctx, other.ID)
	if got.Name == nil || *got.Name != "Ann pro" {
		t.Errorf("customer name %v, want the redemption's profile", got.Name)
	}
}

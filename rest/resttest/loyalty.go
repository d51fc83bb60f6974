package resttest

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
)

// Loyalty fixtures shared by the tests of loyalty v2 (rest/loyaltyv2) and
// of the areas still in rest that set loyalty up (v1 loyalty, orders,
// webhooks, the sweeps and the documented routes).

// V2 is a project's /v2 credentials: a bearer token plus the app keys.
func V2(t testing.TB, e *Env, p access.ProjectCredentials) Headers {
	t.Helper()
	app := App(p)
	return Merge(app, Bearer(e.Token(app, "loyalties")))
}

// MustOK sends v as JSON and fails unless the answer is 200.
func MustOK(t testing.TB, e *Env, method, path string, v any, h Headers) map[string]any {
	t.Helper()
	r := e.DoJSON(method, path, v, h)
	if r.Status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
	}
	return r.JSON(t)
}

// LoyaltySetup is a program with a card definition, a member and the
// member's card, and the /v2 credentials (H) that made them.
type LoyaltySetup struct {
	H                                    Headers
	Program, CardDef, Member, Card, Cust string
}

// MemberPath is the member's path.
func (s LoyaltySetup) MemberPath() string {
	return "/v2/loyalties/programs/" + s.Program + "/members/" + s.Member
}

// CardPath is the member's card's path.
func (s LoyaltySetup) CardPath() string { return s.MemberPath() + "/cards/" + s.Card }

// PaymentsPath is the member's order payments path.
func (s LoyaltySetup) PaymentsPath() string { return s.MemberPath() + "/orders/payments" }

// PurchasesPath is the member's reward purchases path.
func (s LoyaltySetup) PurchasesPath() string { return s.MemberPath() + "/rewards/purchases" }

// NewLoyaltySetup makes an active card definition, an active program with
// it and a member (a new customer) holding one card.
func NewLoyaltySetup(t testing.TB, e *Env) LoyaltySetup {
	t.Helper()
	s := LoyaltySetup{H: V2(t, e, e.Project)}
	cust := MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "member-1"}, App(e.Project))
	s.Cust = cust["id"].(string)
	def := MustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{
		"name": "Gold", "status": "ACTIVE", "code_config": map[string]any{"pattern": "GOLD-######", "charset": "0123456789"},
	}, s.H)
	s.CardDef = def["id"].(string)
	prg := MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{
		"name": "Club", "status": "ACTIVE", "card_definitions": []any{map[string]any{"id": s.CardDef}},
	}, s.H)
	s.Program = prg["id"].(string)
	m := MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/members", map[string]any{"customer_id": s.Cust}, s.H)
	s.Member = m["id"].(string)
	cards := m["cards"].([]any)
	if len(cards) != 1 {
		t.Fatalf("member has %d cards, want 1: %v", len(cards), m)
	}
	s.Card = MemberCardAt(t, m, 0)["id"].(string)
	return s
}

// MemberCardAt is the card of a v2 member's i-th card assignment
// ({member_role, created_at, card, object: member_card}).
func MemberCardAt(t testing.TB, member map[string]any, i int) map[string]any {
	t.Helper()
	assignment := member["cards"].([]any)[i].(map[string]any)
	if assignment["object"] != "member_card" || assignment["member_role"] != "OWNER" || assignment["created_at"] == nil {
		t.Fatalf("member card assignment %v", assignment)
	}
	return assignment["card"].(map[string]any)
}

// NewMaterial creates a product with one SKU in the project of the app
// headers (an incentive's material must name real ones) and returns
// their ids.
func NewMaterial(t testing.TB, e *Env, app Headers) (product, sku string) {
	t.Helper()
	p := MustOK(t, e, http.MethodPost, "/v1/products", map[string]any{"name": "Mug"}, app)["id"].(string)
	s := MustOK(t, e, http.MethodPost, "/v1/products/"+p+"/skus", map[string]any{"sku": "Mug red"}, app)["id"].(string)
	return p, s
}

// V2ProductMaterial is a v2 reward's material naming a new product of the
// environment's project (a reward's product must exist).
func V2ProductMaterial(t testing.TB, e *Env) map[string]any {
	t.Helper()
	p, _ := NewMaterial(t, e, App(e.Project))
	return map[string]any{"product": map[string]any{"id": p}}
}

// Purchasable makes an active MATERIAL reward and assigns it to the
// setup's program with stock units at cost points of its card definition;
// it returns the reward's id.
func Purchasable(t testing.TB, e *Env, s LoyaltySetup, cost, stock int) string {
	t.Helper()
	rw := MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL", "status": "ACTIVE",
		"material": V2ProductMaterial(t, e)}, s.H)["id"].(string)
	MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/rewards/batch", map[string]any{"assign": []any{
		map[string]any{"id": rw, "stock": stock, "costs": []any{map[string]any{"spending": []any{
			map[string]any{"points": cost, "card_definition_id": s.CardDef}}}}}}}, s.H)
	return rw
}

// EarningRuleBody is a v2 earning rule giving 5 points of cardDef per paid
// order, expiring after 12 periods (status "" leaves it to the default).
func EarningRuleBody(cardDef, status string) map[string]any {
	b := map[string]any{
		"name":    "Order points",
		"trigger": map[string]any{"event": "customer.order.paid"},
		"earnings": []any{map[string]any{
			"effects": []any{map[string]any{"points": map[string]any{
				"value": 5, "card_definition_id": cardDef,
				"points_expiration": map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 12}}},
			}}},
		}},
	}
	if status != "" {
		b["status"] = status
	}
	return b
}

// RunDailyPoints runs the daily points job at now through n workers at
// once and returns the summed report.
func RunDailyPoints(t testing.TB, e *Env, now time.Time, n int) loyaltyv1.DailyReport {
	t.Helper()
	ctx := entdb.WithDialect(ent.NewContext(context.Background(), e.Worker.Client), e.Worker.Dialect)
	var mu sync.Mutex
	var sum loyaltyv1.DailyReport
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := loyaltyv1.RunDailyPoints(ctx, now)
			if err != nil {
				t.Errorf("daily points job: %v", err)
			}
			mu.Lock()
			sum.Activated += r.Activated
			sum.Expired += r.Expired
			sum.AutoRedeemed += r.AutoRedeemed
			sum.TiersSettled += r.TiersSettled
			mu.Unlock()
		}()
	}
	wg.Wait()
	return sum
}

// RunDailyTwoProcesses runs the daily points job at now in two
// "processes" at once: the test's worker pool and a second connection
// pool of its own on the same database; it answers the tiers settled by
// both.
func RunDailyTwoProcesses(t testing.TB, e *Env, now time.Time) int {
	t.Helper()
	second, err := entdb.OpenWith(context.Background(), e.URL, RoomyTimeouts)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	var wg sync.WaitGroup
	var settled atomic.Int64
	for _, db := range []struct {
		client  *ent.Client
		dialect string
	}{{e.Worker.Client, e.Worker.Dialect}, {second.Client, second.Dialect}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := loyaltyv1.RunDailyPoints(entdb.WithDialect(ent.NewContext(context.Background(), db.client), db.dialect), now)
			if err != nil {
				t.Errorf("daily points job: %v", err)
			}
			settled.Add(int64(r.TiersSettled))
		}()
	}
	wg.Wait()
	return int(settled.Load())
}

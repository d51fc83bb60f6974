package rest_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

var orderIDRE = regexp.MustCompile(`^ord_[0-9a-f]{18}$`)

func createOrder(t *testing.T, e *resttest.Env, h resttest.Headers, body map[string]any) map[string]any {
	t.Helper()
	return must(t, e.DoJSON(http.MethodPost, "/v1/orders", body, h), http.StatusOK)
}

// TestOrderCreateReadUpdateList drives the orders resource as a shop
// does: create (amounts worked out from the lines, the catalogue's price
// filling a missing one), read by id and source_id, upsert by source_id,
// update, list.
func TestOrderCreateReadUpdateList(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createProduct(t, e, app, map[string]any{"source_id": "mug", "name": "Mug", "price": 1500})

	o := createOrder(t, e, app, map[string]any{"source_id": "web-1", "customer": map[string]any{"source_id": "alice"},
		"metadata": map[string]any{"channel": "web"},
		"items": []any{
			map[string]any{"source_id": "tee", "related_object": "product", "quantity": 2, "price": 2000},
			map[string]any{"product_id": "mug", "quantity": "3"}, // price from the catalogue, quantity as a string
		}})
	id, _ := o["id"].(string)
	if !orderIDRE.MatchString(id) || o["status"] != "CREATED" || o["source_id"] != "web-1" || o["amount"] != float64(8500) ||
		o["total_amount"] != float64(8500) || o["discount_amount"] != float64(0) || o["updated_at"] != nil ||
		o["object"] != "order" || o["customer_id"] == nil {
		t.Fatalf("created %v", o)
	}
	items := o["items"].([]any)
	mug := items[1].(map[string]any)
	if items[0].(map[string]any)["amount"] != float64(4000) || mug["price"] != float64(1500) || mug["amount"] != float64(4500) ||
		mug["subtotal_amount"] != float64(4500) || !strings.HasPrefix(mug["product_id"].(string), "prod_") {
		t.Errorf("lines %v", items)
	}
	for _, ref := range []string{id, "web-1"} {
		if got := must(t, e.Do(http.MethodGet, "/v1/orders/"+ref, nil, app), http.StatusOK); got["id"] != id || got["amount"] != float64(8500) {
			t.Errorf("GET %s = %v", ref, got)
		}
	}
	wantNotFound(t, e.Do(http.MethodGet, "/v1/orders/ord_nope", nil, app), "order", "ord_nope")

	// The same source_id: the same order, the sent fields applied.
	again := createOrder(t, e, app, map[string]any{"source_id": "web-1", "amount": 9000, "discount_amount": 500})
	if again["id"] != id || again["amount"] != float64(9000) || again["discount_amount"] != float64(500) ||
		again["total_discount_amount"] != float64(500) || again["total_amount"] != float64(8500) || again["updated_at"] == nil ||
		len(again["items"].([]any)) != 2 || again["metadata"].(map[string]any)["channel"] != "web" {
		t.Errorf("upserted %v", again)
	}
	upd := must(t, e.DoJSON(http.MethodPut, "/v1/orders/web-1", map[string]any{"status": "PAID"}, app), http.StatusOK)
	if upd["id"] != id || upd["status"] != "PAID" || upd["amount"] != float64(9000) {
		t.Errorf("updated %v", upd)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/orders", map[string]any{"id": "ord_nope"}, app), http.StatusNotFound)
	createOrder(t, e, app, map[string]any{"amount": 100})
	createOrder(t, e, app, map[string]any{"amount": 200})

	l := must(t, e.Do(http.MethodGet, "/v1/orders", nil, app), http.StatusOK)
	list := l["orders"].([]any)
	if l["object"] != "list" || l["data_ref"] != "orders" || l["total"] != float64(3) || len(list) != 3 ||
		list[0].(map[string]any)["amount"] != float64(200) || list[2].(map[string]any)["id"] != id {
		t.Errorf("list %v", l)
	}
	l = must(t, e.Do(http.MethodGet, "/v1/orders?order=created_at&limit=1&page=2", nil, app), http.StatusOK)
	if list := l["orders"].([]any); len(list) != 1 || list[0].(map[string]any)["amount"] != float64(100) || l["total"] != float64(3) {
		t.Errorf("page 2 of 1, oldest first: %v", l)
	}
	l = must(t, e.Do(http.MethodGet, "/v1/orders?order=-updated_at", nil, app), http.StatusOK)
	if list := l["orders"].([]any); list[0].(map[string]any)["id"] != id {
		t.Errorf("-updated_at: the updated order first: %v", l)
	}
	for _, q := range []string{"order=amount", "limit=0", "limit=101", "page=0"} {
		wantErrorKey(t, e.Do(http.MethodGet, "/v1/orders?"+q, nil, app), http.StatusBadRequest, "invalid_query_params")
	}

	// The customer's summary counts the paid order.
	cust := must(t, e.Do(http.MethodGet, "/v1/customers/alice", nil, app), http.StatusOK)
	orders := cust["summary"].(map[string]any)["orders"].(map[string]any)
	if orders["total_amount"] != float64(9000) || orders["total_count"] != float64(1) || orders["average_amount"] != float64(9000) ||
		orders["last_order_amount"] != float64(9000) || orders["last_order_date"] == nil {
		t.Errorf("summary.orders %v", orders)
	}
	// Canceled, it counts no more; its activities are on the customer.
	must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+id, map[string]any{"status": "CANCELED"}, app), http.StatusOK)
	cust = must(t, e.Do(http.MethodGet, "/v1/customers/alice", nil, app), http.StatusOK)
	if orders := cust["summary"].(map[string]any)["orders"].(map[string]any); orders["total_amount"] != float64(0) || orders["total_count"] != float64(0) {
		t.Errorf("summary.orders after cancel %v", orders)
	}
	acts := must(t, e.Do(http.MethodGet, "/v1/customers/alice/activities", nil, app), http.StatusOK)
	var types []string
	for _, a := range acts["data"].([]any) {
		types = append(types, a.(map[string]any)["type"].(string))
	}
	got := strings.Join(types, ",")
	for _, want := range []string{"customer.order.created", "customer.order.updated", "customer.order.paid", "customer.order.canceled"} {
		if !strings.Contains(got, want) {
			t.Errorf("activities %s: no %s", got, want)
		}
	}
}

// TestOrderBadInputWritesNothing: every refused order is the error object
// and leaves no order (nor customer) behind.
func TestOrderBadInputWritesNothing(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	many := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"source_id": fmt.Sprint("p", i), "quantity": 1, "price": 1}
		}
		return out
	}
	cases := map[string]struct {
		body    map[string]any
		details string
	}{
		"negative price":        {map[string]any{"items": []any{map[string]any{"quantity": 1, "price": -1}}}, "items[0].price must not be negative"},
		"quantity 0":            {map[string]any{"items": []any{map[string]any{"quantity": 0, "price": 100}}}, "items[0].quantity cannot be lower than 1"},
		"10,000 items":          {map[string]any{"items": many(10_000)}, "items may hold at most 500 items, got 10000"},
		"501 items":             {map[string]any{"items": many(501)}, "at most 500"},
		"bad status":            {map[string]any{"status": "PROCESSING"}, "status must be one of"},
		"negative amount":       {map[string]any{"amount": -5}, "amount must not be negative"},
		"discount above amount": {map[string]any{"amount": 100, "discount_amount": 101}, "discount"},
	}
	for name, c := range cases {
		c.body["customer"] = map[string]any{"source_id": "bob"}
		c.body["source_id"] = "bad"
		body := wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/orders", c.body, app), http.StatusBadRequest, "invalid_payload")
		if d, _ := body["details"].(string); !strings.Contains(d, c.details) {
			t.Errorf("%s: details %q", name, d)
		}
	}
	if n := e.DB.Client.Order.Query().CountX(systemCtx()); n != 0 {
		t.Errorf("%d orders stored after refused requests", n)
	}
	if n := e.DB.Client.Customer.Query().CountX(systemCtx()); n != 0 {
		t.Errorf("%d customers stored after refused requests", n)
	}
	// 500 lines are accepted.
	if o := createOrder(t, e, app, map[string]any{"items": many(500)}); o["amount"] != float64(500) {
		t.Errorf("500 lines: amount %v", o["amount"])
	}
}

// TestOrderPaidEarnsOnce: an order moving to PAID fires the
// customer.order.paid earning rules once — not again on a second PUT, nor
// after a cancel and a new PAID, nor when many requests over two server
// processes move it at the same time (the proof that matters is on
// PostgreSQL).
func TestOrderPaidEarnsOnce(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := newLoyaltySetup(t, e)
	rule := earningRuleBody(s.CardDef, "ACTIVE")
	mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", rule, s.H)
	// A proportional rule too: 1 point per 10.00 of the amount before discounts.
	mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "per 1000", "status": "ACTIVE",
		"trigger": map[string]any{"event": "customer.order.paid"},
		"earnings": []any{map[string]any{"effects": []any{map[string]any{"points_proportional": map[string]any{
			"calculation_type": "PRE_DISCOUNT_ORDER_AMOUNT", "card_definition_id": s.CardDef,
			"order": map[string]any{"amount": map[string]any{"every": 1000, "value": 1}}}}}}}}, s.H)
	balance := func() float64 {
		t.Helper()
		m := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member, nil, s.H)
		return memberCardAt(t, m, 0)["balance"].(map[string]any)["points"].(float64)
	}
	o := createOrder(t, e, app, map[string]any{"customer": map[string]any{"source_id": "member-1"}, "amount": 4500})
	if b := balance(); b != 0 {
		t.Fatalf("a CREATED order earned %v", b)
	}
	id := o["id"].(string)
	paid := map[string]any{"status": "PAID"}
	must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+id, paid, app), http.StatusOK)
	if b := balance(); b != 5+4 {
		t.Fatalf("after PAID the card holds %v, want 9", b)
	}
	must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+id, paid, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+id, map[string]any{"status": "CANCELED"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+id, paid, app), http.StatusOK)
	if b := balance(); b != 9 {
		t.Fatalf("after PAID twice and again after a cancel the card holds %v, want 9", b)
	}
	// Created PAID earns at once, once.
	createOrder(t, e, app, map[string]any{"source_id": "paid-at-once", "status": "PAID", "amount": 1000,
		"customer": map[string]any{"id": s.Cust}})
	createOrder(t, e, app, map[string]any{"source_id": "paid-at-once", "status": "PAID"})
	if b := balance(); b != 9+6 {
		t.Fatalf("an order created PAID: card %v, want 15", b)
	}

	// Many requests, two processes, one new order: one credit.
	other := e.AnotherServer()
	const n = 12
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := map[string]any{"source_id": "race", "status": "PAID", "amount": 2000, "customer": map[string]any{"id": s.Cust}}
			var r resttest.Response
			if i%2 == 0 {
				r = e.DoJSON(http.MethodPost, "/v1/orders", body, app)
			} else {
				raw := fmt.Appendf(nil, `{"source_id":"race","status":"PAID","amount":2000,"customer":{"id":%q}}`, s.Cust)
				r = e.DoAt(other.URL, http.MethodPost, "/v1/orders", raw, app)
			}
			statuses[i] = r.Status
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusOK {
			t.Errorf("request %d: %d", i, st)
		}
	}
	if b := balance(); b != 15+5+2 {
		t.Errorf("after %d racing PAID writes of one order the card holds %v, want 22", n, b)
	}
	cust := must(t, e.Do(http.MethodGet, "/v1/customers/"+s.Cust, nil, app), http.StatusOK)
	if orders := cust["summary"].(map[string]any)["orders"].(map[string]any); orders["total_count"] != float64(3) ||
		orders["total_amount"] != float64(4500+1000+2000) {
		t.Errorf("summary.orders %v", orders)
	}
}

// TestOrderOfARedemption: the order a redemption stores is the resource:
// GET /v1/orders shows it with its amounts and redemptions, and a
// rollback with the order cancels it.
func TestOrderOfARedemption(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Ten off", "TENOFF", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	r := redeemOne(e, app, map[string]any{"object": "voucher", "id": "TENOFF"}, map[string]any{
		"customer": map[string]any{"source_id": "carol"},
		"order":    map[string]any{"source_id": "cart-7", "items": []any{map[string]any{"source_id": "a", "quantity": 2, "price": 2500}}}})
	red := must(t, r, http.StatusOK)
	o := must(t, e.Do(http.MethodGet, "/v1/orders/cart-7", nil, app), http.StatusOK)
	if o["amount"] != float64(5000) || o["discount_amount"] != float64(1000) || o["total_amount"] != float64(4000) ||
		o["customer_id"] == nil || len(o["redemptions"].(map[string]any)) != 1 || len(o["items"].([]any)) != 1 {
		t.Fatalf("the redeemed order %v", o)
	}
	l := must(t, e.Do(http.MethodGet, "/v1/orders", nil, app), http.StatusOK)
	if l["total"] != float64(1) || l["orders"].([]any)[0].(map[string]any)["total_amount"] != float64(4000) {
		t.Errorf("list %v", l)
	}
	parentID := red["parent_redemption"].(map[string]any)["id"].(string)
	must(t, e.Do(http.MethodPost, "/v1/redemptions/"+parentID+"/rollbacks", nil, app), http.StatusOK)
	o = must(t, e.Do(http.MethodGet, "/v1/orders/cart-7", nil, app), http.StatusOK)
	if o["status"] != "CANCELED" || o["discount_amount"] != float64(0) || o["total_amount"] != float64(5000) {
		t.Errorf("after the rollback with its order %v", o)
	}
}

// TestOrderImportAndExport: an import is an async action whose orders
// then list; an export through the export machinery is a CSV of them.
func TestOrderImportAndExport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	r := e.DoJSON(http.MethodPost, "/v1/orders/import", []any{
		map[string]any{"source_id": "old-1", "status": "PAID", "amount": 1200, "customer": map[string]any{"source_id": "dave"},
			"metadata": map[string]any{"shop": "north"}},
		map[string]any{"source_id": "old-2", "items": []any{map[string]any{"quantity": 1, "price": 300}}},
	}, app)
	started := must(t, r, http.StatusAccepted)
	job := e.WaitForJob(app, started["async_action_id"].(string))
	if job["status"] != "DONE" {
		t.Fatalf("import job %v", job)
	}
	if l := must(t, e.Do(http.MethodGet, "/v1/orders", nil, app), http.StatusOK); l["total"] != float64(2) {
		t.Fatalf("after the import %v", l)
	}
	cust := must(t, e.Do(http.MethodGet, "/v1/customers/dave", nil, app), http.StatusOK)
	if orders := cust["summary"].(map[string]any)["orders"].(map[string]any); orders["total_amount"] != float64(1200) {
		t.Errorf("an imported paid order counts: %v", orders)
	}
	acts := must(t, e.Do(http.MethodGet, "/v1/customers/dave/activities", nil, app), http.StatusOK)
	for _, a := range acts["data"].([]any) {
		if strings.HasPrefix(a.(map[string]any)["type"].(string), "customer.order.") {
			t.Errorf("an imported order recorded an activity: %v", a)
		}
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/orders/import", []any{map[string]any{"items": []any{map[string]any{"quantity": 0}}}}, app),
		http.StatusBadRequest, "invalid_payload")

	exp := must(t, e.DoJSON(http.MethodPost, "/v1/orders/export", map[string]any{"parameters": map[string]any{
		"fields": []string{"id", "source_id", "status", "amount", "metadata.shop"}, "order": "created_at"}}, app), http.StatusOK)
	if exp["exported_object"] != "order" || exp["status"] != "SCHEDULED" || !strings.HasPrefix(exp["id"].(string), "exp_") {
		t.Fatalf("export %v", exp)
	}
	var url string
	for range 3000 {
		got := must(t, e.Do(http.MethodGet, "/v1/exports/"+exp["id"].(string), nil, app), http.StatusOK)
		if res, ok := got["result"].(map[string]any); ok && res["url"] != nil {
			url = res["url"].(string)
			break
		}
		waitABit()
	}
	if url == "" {
		t.Fatal("the export did not finish")
	}
	dl := e.Do(http.MethodGet, url[strings.Index(url, "/v1/"):], nil, nil)
	lines := strings.Split(strings.TrimSpace(string(dl.Body)), "\n")
	if len(lines) == 3 && strings.HasSuffix(lines[1], ",old-2,CREATED,300,") {
		// One import stamps its orders with one created_at: the order
		// between them is the tie's, not the file's.
		lines[1], lines[2] = lines[2], lines[1]
	}
	if len(lines) != 3 || lines[0] != "id,source_id,status,amount,metadata.shop" ||
		!strings.HasSuffix(lines[1], ",old-1,PAID,1200,north") || !strings.HasSuffix(lines[2], ",old-2,CREATED,300,") {
		t.Errorf("export file:\n%s", dl.Body)
	}
	for _, bad := range []map[string]any{{"fields": []string{"nope"}}, {"order": "amount"},
		{"filters": map[string]any{"amount": map[string]any{"conditions": map[string]any{"$starts_with": []any{"1"}}}}}} {
		wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/orders/export", map[string]any{"parameters": bad}, app),
			http.StatusBadRequest, "invalid_payload")
	}
}

// TestOrderTenancy: another project's orders are not found, listed,
// changed or exported.
func TestOrderTenancy(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("other"))
	o := createOrder(t, e, app, map[string]any{"source_id": "mine", "amount": 100})
	for _, ref := range []string{o["id"].(string), "mine"} {
		must(t, e.Do(http.MethodGet, "/v1/orders/"+ref, nil, other), http.StatusNotFound)
		must(t, e.DoJSON(http.MethodPut, "/v1/orders/"+ref, map[string]any{"status": "PAID"}, other), http.StatusNotFound)
	}
	if l := must(t, e.Do(http.MethodGet, "/v1/orders", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("other project's list %v", l)
	}
	// The same source_id in the other project is another order.
	if theirs := createOrder(t, e, other, map[string]any{"source_id": "mine", "amount": 7}); theirs["id"] == o["id"] {
		t.Errorf("one order across projects: %v", theirs)
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/orders/mine", nil, app), http.StatusOK); got["amount"] != float64(100) || got["status"] != "CREATED" {
		t.Errorf("mine after the other project wrote %v", got)
	}
}

// TestOrderGraphQL: the GraphQL fields call the same use cases.
func TestOrderGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	r := e.GraphQL(app, `mutation { createOrder(input: {sourceID: "g-1", items: [{quantity: 2, price: 150}]}) { id amount totalAmount status } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("createOrder: %v", r.Errors)
	}
	created := r.Data["createOrder"].(map[string]any)
	if created["amount"] != float64(300) || created["status"] != "CREATED" {
		t.Errorf("created %v", created)
	}
	r = e.GraphQL(app, `mutation { updateOrder(id: "g-1", input: {status: "PAID"}) { id status } }`, nil)
	if len(r.Errors) > 0 || r.Data["updateOrder"].(map[string]any)["status"] != "PAID" {
		t.Errorf("updateOrder: %v %v", r.Data, r.Errors)
	}
	r = e.GraphQL(app, `{ order(id: "g-1") { id amount } orderList(input: {limit: 5}) { total data { id } } }`, nil)
	if len(r.Errors) > 0 || r.Data["order"].(map[string]any)["id"] != created["id"] ||
		r.Data["orderList"].(map[string]any)["total"] != float64(1) {
		t.Errorf("order, orderList: %v %v", r.Data, r.Errors)
	}
	r = e.GraphQL(app, `mutation { createOrder(input: {items: [{quantity: 0, price: 1}]}) { id } }`, nil)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("quantity 0 over GraphQL: %v %v", r.Data, r.Errors)
	}
	r = e.GraphQL(app, `mutation { importOrders(input: [{sourceID: "g-2", amount: 5}]) { id } exportOrders { id exportedObject } }`, nil)
	if len(r.Errors) > 0 || r.Data["exportOrders"].(map[string]any)["exportedObject"] != "order" {
		t.Errorf("importOrders, exportOrders: %v %v", r.Data, r.Errors)
	}
}

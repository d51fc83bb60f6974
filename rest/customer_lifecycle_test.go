package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func customerSourceIDs(list map[string]any) string {
	var ids []string
	for _, c := range list["customers"].([]any) {
		ids = append(ids, c.(map[string]any)["source_id"].(string))
	}
	return strings.Join(ids, ",")
}

func TestCustomerListFiltersPagesAndScrolls(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	var created []string
	for _, c := range []map[string]any{
		{"source_id": "ann", "name": "Ann", "email": "ann@example.com", "address": map[string]any{"city": "Gdańsk"}},
		{"source_id": "bob", "name": "Bob", "address": map[string]any{"city": "Berlin"}},
		{"source_id": "cyd", "name": "Cyd", "address": map[string]any{"city": "Gdańsk"}},
	} {
		created = append(created, must(t, e.DoJSON(http.MethodPost, "/v1/customers", c, app), http.StatusOK)["created_at"].(string))
		waitABit()
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "zed"}, resttest.App(e.NewProject("other"))), http.StatusOK)

	all := must(t, e.Do(http.MethodGet, "/v1/customers", nil, app), http.StatusOK)
	if all["object"] != "list" || all["data_ref"] != "customers" || all["total"] != float64(3) || all["has_more"] != false ||
		customerSourceIDs(all) != "cyd,bob,ann" {
		t.Errorf("GET /v1/customers = %v", all)
	}
	page := must(t, e.Do(http.MethodGet, "/v1/customers?limit=2&order=created_at", nil, app), http.StatusOK)
	if customerSourceIDs(page) != "ann,bob" || page["has_more"] != true {
		t.Errorf("first page = %v", page)
	}
	for query, want := range map[string]string{
		"city=" + url.QueryEscape("Gdańsk"): "cyd,ann",
		"email=ann@example.com":             "ann",
		"name=Bob":                          "bob",
		"order=source_id":                   "ann,bob,cyd",
		"created_at[after]=" + url.QueryEscape(created[0]):                    "cyd,bob",
		"starting_after=" + url.QueryEscape(created[0]) + "&order=created_at": "bob,cyd",
		"starting_after=" + url.QueryEscape(created[2]):                       "bob,ann",
	} {
		if got := customerSourceIDs(must(t, e.Do(http.MethodGet, "/v1/customers?"+query, nil, app), http.StatusOK)); got != want {
			t.Errorf("?%s = %s, want %s", query, got, want)
		}
	}
	seg := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "vip", "type": "static",
		"customers": []string{all["customers"].([]any)[1].(map[string]any)["id"].(string)}}, app), http.StatusOK)
	for _, name := range []string{"segment", "segment_id"} { // segment_id: the reference's name
		if got := customerSourceIDs(must(t, e.Do(http.MethodGet, "/v1/customers?"+name+"="+seg["id"].(string), nil, app), http.StatusOK)); got != "bob" {
			t.Errorf("%s filter = %s", name, got)
		}
	}
	bobSegs := must(t, e.Do(http.MethodGet, "/v1/customers/bob/segments", nil, app), http.StatusOK)
	if bobSegs["total"] != float64(1) || bobSegs["data"].([]any)[0].(map[string]any)["name"] != "vip" {
		t.Errorf("GET /v1/customers/bob/segments = %v", bobSegs)
	}
	if annSegs := must(t, e.Do(http.MethodGet, "/v1/customers/ann/segments", nil, app), http.StatusOK); annSegs["total"] != float64(0) {
		t.Errorf("ann's segments = %v", annSegs)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/customers/nobody/segments", nil, app), http.StatusNotFound, "not_found", "")
	for _, q := range []string{"order=email", "limit=101", "created_at[before]=yesterday"} {
		wantError(t, e.Do(http.MethodGet, "/v1/customers?"+q, nil, app), http.StatusBadRequest, "invalid_query_params", "")
	}
	gql := e.GraphQL(app, `{ customerList(input: {city: "Berlin"}) { total hasMore data { sourceID } } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["customerList"].(map[string]any)["total"] != float64(1) {
		t.Errorf("customerList = %+v", gql)
	}
}

func TestCustomerUpdateAndDelete(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Gifts4U", "G-1", "G-2")
	pub := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Gifts4U"},
		"customer": map[string]any{"source_id": "eve", "email": "eve@example.com"}}, app), http.StatusOK)
	code := pub["voucher"].(map[string]any)["code"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{"customer": map[string]any{"source_id": "eve"}}, app), http.StatusOK)

	up := must(t, e.DoJSON(http.MethodPut, "/v1/customers/eve", map[string]any{"name": "Eve", "source_id": "ignored",
		"metadata": map[string]any{"tier": "gold"}}, app), http.StatusOK)
	if up["name"] != "Eve" || up["email"] != "eve@example.com" || up["source_id"] != "eve" || mustJSON(up["metadata"]) != `{"tier":"gold"}` {
		t.Errorf("updated customer = %v", up)
	}
	wantError(t, e.DoJSON(http.MethodPut, "/v1/customers/eve", map[string]any{"email": "not-an-email"}, app), http.StatusBadRequest, "invalid_payload", "email")
	wantError(t, e.DoJSON(http.MethodPut, "/v1/customers/nobody", map[string]any{"name": "x"}, app), http.StatusNotFound, "not_found", "")
	gql := e.GraphQL(app, `mutation { updateCustomer(idOrSourceID: "eve", input: {phone: "+48 1"}) { phone name } }`, nil)
	if len(gql.Errors) > 0 || gql.Data["updateCustomer"].(map[string]any)["phone"] != "+48 1" {
		t.Errorf("updateCustomer = %+v", gql)
	}

	del := e.Do(http.MethodDelete, "/v1/customers/eve", nil, app)
	if del.Status != http.StatusNoContent {
		t.Fatalf("DELETE customer: %d %s", del.Status, del.Body)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/customers/eve", nil, app), http.StatusNotFound, "not_found", "")
	// The code stays used (redeemed once, published) but has no holder; the
	// redemption stays in the history without the customer.
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/"+code, nil, app), http.StatusOK)
	if v["holder_id"] != nil || v["redemption"].(map[string]any)["redeemed_quantity"] != float64(1) {
		t.Errorf("voucher after its holder's deletion = %v", v)
	}
	hist := must(t, e.Do(http.MethodGet, "/v1/redemptions?limit=100", nil, app), http.StatusOK)
	if !strings.Contains(mustJSON(hist), code) || strings.Contains(mustJSON(hist), "eve@example.com") {
		t.Errorf("history after the deletion = %s", mustJSON(hist))
	}
	// The other code can still be published to someone else; eve can come back as a new customer.
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Gifts4U"}, "customer": map[string]any{"source_id": "eve"}}, app), http.StatusOK)

	perm := must(t, e.Do(http.MethodPost, "/v1/customers/eve/permanent-deletion", nil, app), http.StatusOK)
	if perm["status"] != "DONE" || perm["related_object"] != "customer" || !strings.HasPrefix(perm["id"].(string), "del_") ||
		perm["data_json"].(map[string]any)["publications"] != float64(1) {
		t.Errorf("permanent deletion = %v", perm)
	}
	wantError(t, e.Do(http.MethodDelete, "/v1/customers/eve", nil, app), http.StatusNotFound, "not_found", "")
}

// TestCustomerResponsesLeaveOutWhatHasNoValue: as the real service does, a
// customer created without metadata has no metadata key, and its address
// shows only the lines it was given (no null lines).
func TestCustomerResponsesLeaveOutWhatHasNoValue(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	created := must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ida",
		"address": map[string]any{"city": "Oslo", "country": "NO"}}, app), http.StatusOK)
	if hasKey(created, "metadata") {
		t.Errorf("customer without metadata shows metadata: %v", created["metadata"])
	}
	if got := mustJSON(created["address"]); got != `{"city":"Oslo","country":"NO"}` {
		t.Errorf("address = %s, want only the given lines", got)
	}
	got := must(t, e.Do(http.MethodGet, "/v1/customers/ida", nil, app), http.StatusOK)
	if hasKey(got, "metadata") || mustJSON(got["address"]) != `{"city":"Oslo","country":"NO"}` {
		t.Errorf("GET customer = %v", got)
	}
	withMeta := must(t, e.DoJSON(http.MethodPut, "/v1/customers/ida", map[string]any{"metadata": map[string]any{"tier": "gold"}}, app), http.StatusOK)
	if mustJSON(withMeta["metadata"]) != `{"tier":"gold"}` {
		t.Errorf("metadata after update = %v", withMeta["metadata"])
	}
}

// listedAsRead fails unless every customer of GET /v1/customers (whose
// summaries and referrals are read for the whole page at once) shows the
// same summary and referrals as GET /v1/customers/{id} (read for the one
// customer).
func listedAsRead(t *testing.T, e *resttest.Env, app resttest.Headers) {
	t.Helper()
	list := must(t, e.Do(http.MethodGet, "/v1/customers?limit=100", nil, app), http.StatusOK)
	custs := list["customers"].([]any)
	if len(custs) == 0 {
		t.Fatalf("listedAsRead: no customers: %v", list)
	}
	for _, c := range custs {
		listed := c.(map[string]any)
		read := must(t, e.Do(http.MethodGet, "/v1/customers/"+listed["id"].(string), nil, app), http.StatusOK)
		for _, k := range []string{"summary", "referrals"} {
			if got, want := mustJSON(listed[k]), mustJSON(read[k]); got != want {
				t.Errorf("customer %s: listed %s %s, read alone %s", listed["source_id"], k, got, want)
			}
		}
	}
}

// TestCustomerListReadsSummariesForThePage: GET /v1/customers reads the
// page's summaries in a few statements for the whole page; each customer
// still gets its own counters and amounts (the gift credits ann and ben
// spent, ben's discount, a rolled-back redemption of cid's, dan without
// any), as GET /v1/customers/{id} shows them.
func TestCustomerListReadsSummariesForThePage(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gifts", "GIFT-A", 5000)
	discountCode(t, e, app, "Tenner", "TEN", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	who := func(s string) map[string]any { return map[string]any{"customer": map[string]any{"source_id": s}} }
	with := func(m map[string]any, order int) map[string]any {
		m["order"] = map[string]any{"amount": order}
		return m
	}
	must(t, redeemOne(e, app, map[string]any{"id": "GIFT-A", "gift": map[string]any{"credits": 2000}}, with(who("ann"), 2000)), http.StatusOK)
	must(t, redeemOne(e, app, map[string]any{"id": "GIFT-A", "gift": map[string]any{"credits": 1000}}, with(who("ben"), 3000)), http.StatusOK)
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN"}, with(who("ben"), 3000)), http.StatusOK)
	red := must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN"}, with(who("cid"), 3000)), http.StatusOK)
	must(t, e.Do(http.MethodPost, "/v1/redemptions/"+red["parent_redemption"].(map[string]any)["id"].(string)+"/rollbacks", nil, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "dan"}, app), http.StatusOK)

	list := must(t, e.Do(http.MethodGet, "/v1/customers?limit=10", nil, app), http.StatusOK)
	got := map[string]string{}
	for _, c := range list["customers"].([]any) {
		c := c.(map[string]any)
		r := c["summary"].(map[string]any)["redemptions"].(map[string]any)
		got[c["source_id"].(string)] = mustJSON([]any{r["total_redeemed"], r["total_succeeded"], r["total_rolled_back"],
			r["total_rollback_succeeded"], r["gift"].(map[string]any)["redeemed_amount"]})
	}
	want := map[string]string{"ann": "[1,1,0,0,2000]", "ben": "[2,2,0,0,1000]", "cid": "[1,1,1,1,0]", "dan": "[0,0,0,0,0]"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: redeemed, succeeded, rolled back, rollbacks, gift credits = %s, want %s", k, got[k], w)
		}
	}
	listedAsRead(t, e, app)
}

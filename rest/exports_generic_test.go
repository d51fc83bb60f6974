package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// POST /v1/exports as a user drives it: a customers export with fields,
// order and filters, polled to DONE and downloaded; an orders and a
// voucher-transactions export through the same route; the list, the
// delete (the file goes too), tenancy and the 400s naming what is allowed.
func TestGenericExports(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for _, c := range []map[string]any{
		{"source_id": "ann", "name": "Ann", "metadata": map[string]any{"tier": "gold"}, "address": map[string]any{"city": "Oslo"}},
		{"source_id": "bob", "name": "Bob, Jr."},
		{"source_id": "cid", "name": "Cid"},
	} {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", c, app), http.StatusOK)
	}
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "customer",
		"parameters": map[string]any{"fields": []string{"source_id", "name", "address_city", "metadata.tier"}, "order": "created_at",
			"filters": map[string]any{"junction": "and", "source_id": map[string]any{"conditions": map[string]any{"$in": []string{"ann", "bob"}}}}}},
		app), http.StatusOK)
	if exp["exported_object"] != "customer" || exp["status"] != "SCHEDULED" {
		t.Fatalf("export = %v", exp)
	}
	done := waitForExport(t, e, app, exp["id"].(string))
	status, csv := download(t, e, done["result"].(map[string]any)["url"].(string))
	if status != http.StatusOK || csv != "source_id,name,address_city,metadata.tier\nann,Ann,Oslo,gold\nbob,\"Bob, Jr.\",,\n" {
		t.Errorf("customers CSV %d:\n%s", status, csv)
	}

	// The per-resource exports' objects through the generic route.
	must(t, e.DoJSON(http.MethodPost, "/v1/orders", map[string]any{"source_id": "o-1", "amount": 500}, app), http.StatusOK)
	orders := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "order",
		"parameters": map[string]any{"fields": []string{"source_id", "amount"}}}, app), http.StatusOK)
	done = waitForExport(t, e, app, orders["id"].(string))
	if _, csv := download(t, e, done["result"].(map[string]any)["url"].(string)); csv != "source_id,amount\no-1,500\n" {
		t.Errorf("orders CSV:\n%s", csv)
	}
	card := giftCard(t, e, app, "Gift cards", "GIFT-1", 10000)
	tx := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "voucher_transactions",
		"parameters": map[string]any{"filters": map[string]any{"voucher_id": map[string]any{"conditions": map[string]any{"$in": []string{"GIFT-1"}}}}}},
		app), http.StatusOK)
	if p := tx["parameters"].(map[string]any); p["order"] != nil || p["fields"] != nil || card == nil {
		t.Errorf("voucher transactions export parameters = %v", p)
	}
	waitForExport(t, e, app, tx["id"].(string))

	// The list, newest first, a page at a time.
	list := must(t, e.Do(http.MethodGet, "/v1/exports?limit=2", nil, app), http.StatusOK)
	got := list["exports"].([]any)
	if list["total"] != float64(3) || list["data_ref"] != "exports" || len(got) != 2 || got[0].(map[string]any)["id"] != tx["id"] {
		t.Errorf("list = %v", list)
	}
	if page2 := must(t, e.Do(http.MethodGet, "/v1/exports?limit=2&page=2&order=created_at", nil, app), http.StatusOK); len(page2["exports"].([]any)) != 1 ||
		page2["exports"].([]any)[0].(map[string]any)["id"] != tx["id"] {
		t.Errorf("page 2 = %v", page2)
	}

	// Another project sees none of them.
	other := resttest.App(e.NewProject("other"))
	wantError(t, e.Do(http.MethodGet, "/v1/exports/"+exp["id"].(string), nil, other), http.StatusNotFound, "not_found", "exp_")
	wantError(t, e.Do(http.MethodDelete, "/v1/exports/"+exp["id"].(string), nil, other), http.StatusNotFound, "not_found", "exp_")
	if l := must(t, e.Do(http.MethodGet, "/v1/exports", nil, other), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("other project's list = %v", l)
	}

	// Deleted: gone, and so is its file.
	url := done["result"].(map[string]any)["url"].(string)
	if r := e.Do(http.MethodDelete, "/v1/exports/"+orders["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/exports/"+orders["id"].(string), nil, app), http.StatusNotFound, "not_found", "exp_")
	if status, _ := download(t, e, url); status == http.StatusOK {
		t.Errorf("the deleted export's file still downloads")
	}

	// What is not understood is refused, naming what is allowed.
	for _, bad := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"exported_object": "coupons"}, "voucher_transactions"},
		{map[string]any{"exported_object": "points_expiration"}, "campaign_id"},
		{map[string]any{"exported_object": "customer", "parameters": map[string]any{"fields": []string{"shoe_size"}}}, "address_city"},
		{map[string]any{"exported_object": "customer", "parameters": map[string]any{"filters": map[string]any{"shoe": map[string]any{}}}}, "source_id"},
		{map[string]any{"exported_object": "customer", "parameters": map[string]any{"sort": "x"}}, "fields, order and filters"},
		{map[string]any{"exported_object": "voucher_transactions", "parameters": map[string]any{}}, "voucher_id"},
	} {
		r := e.DoJSON(http.MethodPost, "/v1/exports", bad.body, app)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), bad.want) {
			t.Errorf("POST /v1/exports %v: %d %s", bad.body, r.Status, r.Body)
		}
	}
	wantError(t, e.Do(http.MethodGet, "/v1/exports?order=size", nil, app), http.StatusBadRequest, "invalid_query_params", "order")
}

// The same operations through GraphQL: createExport, exportsList,
// deleteExport; and the bulk customer/voucher mutations.
func TestExportsAndBulkJobsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann"}, app), http.StatusOK)
	gql := e.GraphQL(app, `mutation { createExport(input: {exportedObject: "customer", parameters: {fields: ["source_id"]}}) { id exportedObject } }`, nil)
	if len(gql.Errors) != 0 {
		t.Fatalf("createExport: %+v", gql.Errors)
	}
	id := gql.Data["createExport"].(map[string]any)["id"].(string)
	done := waitForExport(t, e, app, id)
	if _, csv := download(t, e, done["result"].(map[string]any)["url"].(string)); csv != "source_id\nann\n" {
		t.Errorf("CSV:\n%s", csv)
	}
	gql = e.GraphQL(app, `{ exportsList(limit: 5) { total exports { id } } }`, nil)
	if len(gql.Errors) != 0 || gql.Data["exportsList"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("exportsList: %+v %v", gql.Errors, gql.Data)
	}
	gql = e.GraphQL(app, `mutation($id: ID!) { deleteExport(id: $id) }`, map[string]any{"id": id})
	if len(gql.Errors) != 0 || gql.Data["deleteExport"] != id {
		t.Fatalf("deleteExport: %+v %v", gql.Errors, gql.Data)
	}
	gql = e.GraphQL(app, `mutation { createExport(input: {exportedObject: "points_expiration"}) { id } }`, nil)
	if len(gql.Errors) != 1 || gql.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("createExport of points expirations: %+v", gql)
	}

	gql = e.GraphQL(app, `mutation {
		a: updateCustomersInBulk(input: [{sourceID: "ann", email: "ann@example.com"}]) { id }
		b: updateCustomersMetadataInBulk(input: {sourceIDs: ["ann"], metadata: {tier: "gold"}}) { id }
		c: updateVouchersMetadataInBulk(input: {codes: ["NONE"], metadata: {x: 1}}) { id } }`, nil)
	if len(gql.Errors) != 0 {
		t.Fatalf("bulk mutations: %+v", gql.Errors)
	}
	for _, k := range []string{"a", "b", "c"} {
		e.WaitForJob(app, gql.Data[k].(map[string]any)["id"].(string))
	}
	ann := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)
	if ann["email"] != "ann@example.com" || ann["metadata"].(map[string]any)["tier"] != "gold" {
		t.Errorf("ann = %v", ann)
	}
}

// A vouchers export: the codes with their values, filtered by code.
func TestVoucherExport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "TEN", "type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "PERCENT", "percent_off": 10}, "metadata": map[string]any{"src": "old"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "CARD", "type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 5000}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "OTHER", "type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}, app), http.StatusOK)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "voucher", "parameters": map[string]any{
		"order": "created_at", "fields": []string{"code", "voucher_type", "value", "discount_type", "gift_balance", "metadata.src"},
		"filters": map[string]any{"code": map[string]any{"conditions": map[string]any{"$in": []string{"TEN", "CARD"}}}}}}, app), http.StatusOK)
	done := waitForExport(t, e, app, exp["id"].(string))
	want := "code,voucher_type,value,discount_type,gift_balance,metadata.src\nTEN,DISCOUNT_VOUCHER,10,PERCENT,,old\nCARD,GIFT_VOUCHER,5000,,5000,\n"
	if _, csv := download(t, e, done["result"].(map[string]any)["url"].(string)); csv != want {
		t.Errorf("vouchers CSV:\n%s\nwant:\n%s", csv, want)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "voucher",
		"parameters": map[string]any{"order": "value"}}, app), http.StatusBadRequest, "invalid_payload", "-created_at, created_at, -updated_at")
}

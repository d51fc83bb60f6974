package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/rest/resttest"
)

// exportCSV creates an export through POST /v1/exports, waits for it and
// returns its file.
func exportCSV(t *testing.T, e *resttest.Env, h resttest.Headers, object string, params map[string]any) string {
	t.Helper()
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": object, "parameters": params}, h), http.StatusOK)
	done := waitForExport(t, e, h, exp["id"].(string))
	if done["status"] != "DONE" {
		t.Fatalf("export %v", done)
	}
	status, csv := download(t, e, done["result"].(map[string]any)["url"].(string))
	if status != http.StatusOK {
		t.Fatalf("download %d %s", status, csv)
	}
	return csv
}

// cond is a filter member with one condition.
func cond(op string, v any) map[string]any {
	return map[string]any{"conditions": map[string]any{op: v}}
}

// An export's rows honour the documented filters (junction or/and, the
// text, number, boolean, date and metadata conditions, members read
// through related rows) and orders of each exported object.
func TestExportRowsHonourFiltersAndOrders(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for _, c := range []map[string]any{
		{"source_id": "ann", "name": "ann", "email": "ann@a.io", "metadata": map[string]any{"tier": "gold", "visits": 3},
			"address": map[string]any{"city": "Oslo"}},
		{"source_id": "bob", "name": "bob", "email": "bob@b.io", "metadata": map[string]any{"tier": "silver", "visits": 9},
			"address": map[string]any{"city": "Rome"}},
		{"source_id": "cid", "name": "cid"},
	} {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", c, app), http.StatusOK)
	}
	customers := func(params map[string]any) string {
		t.Helper()
		return exportCSV(t, e, app, "customer", params)
	}
	if got := customers(map[string]any{"fields": []string{"source_id"}, "order": "-name", "filters": map[string]any{"junction": "OR",
		"email": cond("$starts_with", "ann@"), "city": cond("$is", "Rome")}}); got != "source_id\nbob\nann\n" {
		t.Errorf("customers email or city, by -name:\n%s", got)
	}
	if got := customers(map[string]any{"fields": []string{"source_id"}, "order": "email", "filters": map[string]any{
		"metadata.visits": cond("$more_than", 1), "name": cond("$is_not", "bob")}}); got != "source_id\nann\n" {
		t.Errorf("customers metadata.visits > 1 and not bob:\n%s", got)
	}
	if got := customers(map[string]any{"fields": []string{"source_id"}, "order": "email", "filters": map[string]any{
		"email": cond("$is_unknown", true)}}); got != "source_id\ncid\n" {
		t.Errorf("customers without email:\n%s", got)
	}
	// No email sorts first.
	if got := customers(map[string]any{"fields": []string{"source_id"}, "order": "email"}); got != "source_id\ncid\nann\nbob\n" {
		t.Errorf("customers by email:\n%s", got)
	}

	// Vouchers: a boolean, a code order, a member read from the category.
	food := must(t, e.DoJSON(http.MethodPost, "/v1/categories", map[string]any{"name": "Food", "hierarchy": 1}, app), http.StatusOK)["id"]
	for _, v := range []map[string]any{
		{"code": "B-2", "category_id": food}, {"code": "A-1"}, {"code": "C-3", "active": false, "category_id": food},
	} {
		v["type"], v["discount"] = "DISCOUNT_VOUCHER", map[string]any{"type": "AMOUNT", "amount_off": 100}
		must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", v, app), http.StatusOK)
	}
	if got := exportCSV(t, e, app, "voucher", map[string]any{"fields": []string{"code"}, "order": "-code",
		"filters": map[string]any{"active": cond("$is", true)}}); got != "code\nB-2\nA-1\n" {
		t.Errorf("active vouchers by -code:\n%s", got)
	}
	if got := exportCSV(t, e, app, "voucher", map[string]any{"fields": []string{"code"}, "order": "code",
		"filters": map[string]any{"categories": cond("$in", []string{"Food"})}}); got != "code\nB-2\nC-3\n" {
		t.Errorf("vouchers of the category Food by code:\n%s", got)
	}

	// Orders: numbers and an order by status.
	for _, o := range []map[string]any{{"source_id": "o-1", "amount": 500}, {"source_id": "o-2", "amount": 1500, "status": "PAID"},
		{"source_id": "o-3", "amount": 2500}} {
		must(t, e.DoJSON(http.MethodPost, "/v1/orders", o, app), http.StatusOK)
	}
	if got := exportCSV(t, e, app, "order", map[string]any{"fields": []string{"source_id"}, "order": "-status",
		"filters": map[string]any{"amount": cond("$more_than_equal", 1500)}}); got != "source_id\no-2\no-3\n" {
		t.Errorf("orders of 1500 and more by -status:\n%s", got)
	}

	// Publications and redemptions: members read through the codes and
	// the customers, orders by code.
	for code, customer := range map[string]string{"A-1": "ann", "B-2": "bob"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": code,
			"customer": map[string]any{"source_id": customer}}, app), http.StatusOK)
		must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": code}},
			"customer": map[string]any{"source_id": customer}, "order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	}
	if got := exportCSV(t, e, app, "publication", map[string]any{"fields": []string{"voucher_code"}, "order": "-voucher_code",
		"filters": map[string]any{"voucher": cond("$in", []string{"A-1", "B-2"})}}); got != "voucher_code\nB-2\nA-1\n" {
		t.Errorf("publications of A-1 and B-2 by -voucher_code:\n%s", got)
	}
	if got := exportCSV(t, e, app, "publication", map[string]any{"fields": []string{"voucher_code"},
		"filters": map[string]any{"customer": cond("$is", "bob")}}); got != "voucher_code\nB-2\n" {
		t.Errorf("publications of bob:\n%s", got)
	}
	if got := exportCSV(t, e, app, "redemption", map[string]any{"fields": []string{"voucher_code"}, "order": "voucher_code",
		"filters": map[string]any{"junction": "or", "voucher_code": cond("$is", "B-2"), "customer": cond("$is", "ann")}}); got != "voucher_code\n\nA-1\nB-2\n" {
		// ann's: the parent redemption (no code, first) and A-1's; B-2's.
		t.Errorf("redemptions of B-2 or ann by voucher_code:\n%s", got)
	}
	if got := exportCSV(t, e, app, "redemption", map[string]any{"fields": []string{"voucher_code"},
		"filters": map[string]any{"created_at": cond("$before", "2000-01-01T00:00:00Z")}}); got != "voucher_code\n" {
		t.Errorf("redemptions before 2000:\n%s", got)
	}

	// What a member cannot take is refused by name.
	for _, bad := range []struct {
		object string
		params map[string]any
		want   string
	}{
		{"customer", map[string]any{"filters": map[string]any{"junction": "xor"}}, "junction"},
		{"customer", map[string]any{"filters": map[string]any{"email": cond("$more_than", 3)}}, "$starts_with"},
		{"order", map[string]any{"filters": map[string]any{"amount": cond("$in", []any{"lots"})}}, "number"},
		{"voucher", map[string]any{"filters": map[string]any{"redemption_status": cond("$is", "x")}}, "categories"},
		{"publication", map[string]any{"order": "size"}, "-voucher_code"},
		{"customer", map[string]any{"campaign_id": "camp_1"}, "voucher export"},
	} {
		wantError(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": bad.object, "parameters": bad.params}, app),
			http.StatusBadRequest, "invalid_payload", bad.want)
	}
}

// The subject exports through POST /v1/exports: voucher transactions of
// a voucher within created_at, points expirations of one card of a
// program (voucher_id).
func TestSubjectExportsHonourTheirFilters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-F", 100)
	must(t, balance(t, e, app, "GIFT-F", map[string]any{"amount": 5}), http.StatusOK)
	voucher := map[string]any{"voucher_id": cond("$in", []string{"GIFT-F"})}
	if got := exportCSV(t, e, app, "voucher_transactions", map[string]any{"fields": []string{"amount"}, "filters": voucher}); got != "amount\n5\n" {
		t.Errorf("transactions:\n%s", got)
	}
	voucher["created_at"] = cond("$after", "2999-01-01T00:00:00Z")
	if got := exportCSV(t, e, app, "voucher_transactions", map[string]any{"fields": []string{"amount"}, "filters": voucher}); got != "amount\n" {
		t.Errorf("transactions after 2999:\n%s", got)
	}

	id := mustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{"name": "Expiring", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 2, "rounding_type": "END_OF_MONTH"}}},
	}, app)["id"].(string)
	a := addV1Member(t, e, app, id, "pa")
	b := addV1Member(t, e, app, id, "pb")
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+a["code"].(string)+"/balance", map[string]any{"points": 50}, app)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+b["code"].(string)+"/balance", map[string]any{"points": 20}, app)
	got := exportCSV(t, e, app, "points_expiration", map[string]any{"fields": []string{"voucher_id", "points"},
		"filters": map[string]any{"campaign_id": cond("$in", []string{id}), "voucher_id": cond("$in", []string{b["id"].(string)})}})
	if got != "voucher_id,points\n"+b["id"].(string)+",20\n" {
		t.Errorf("points expirations of b:\n%s", got)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "points_expiration",
		"parameters": map[string]any{"filters": map[string]any{"campaign_id": cond("$in", []string{"camp_nope"})}}}, app),
		http.StatusNotFound, "not_found", "camp_nope")
}

// An export in another order than created_at resumes after its last
// committed row: a worker reading two rows a query writes each customer
// once, in name order.
func TestExportInOtherOrderPagesOnce(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	for _, name := range []string{"eve", "ann", "dan", "bob", "cid"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": name, "name": name}, app), http.StatusOK)
	}
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "customer",
		"parameters": map[string]any{"fields": []string{"name"}, "order": "name"}}, app), http.StatusOK)
	w := &job.Worker{Client: e.DB.Client, Dialect: e.DB.Dialect, Logger: quietLogger, BatchSize: 2}
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("RunOnce: %v %v", worked, err)
	}
	done := must(t, e.Do(http.MethodGet, "/v1/exports/"+exp["id"].(string), nil, app), http.StatusOK)
	if done["status"] != "DONE" {
		t.Fatalf("export %v", done)
	}
	if _, csv := download(t, e, done["result"].(map[string]any)["url"].(string)); csv != "name\nann\nbob\ncid\ndan\neve\n" {
		t.Errorf("customers by name in pages of two:\n%s", strings.ReplaceAll(csv, "\n", "|"))
	}
}

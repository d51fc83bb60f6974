package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// A project moves by exporting its codes and importing the file unchanged
// (docs/migrating.md): the export's columns — the redemption limit and
// count, a gift card's value and balance, metadata as JSON, ids and dates —
// are read by both CSV imports, not stored as metadata keys.
func TestExportedVouchersImportUnchanged(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	gift := map[string]any{"name": "Cards", "type": "STATIC", "voucher": map[string]any{"type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 1000}, "redemption": map[string]any{"quantity": 5}}}
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", gift, app), http.StatusOK)
	must(t, addVoucher(t, e, "Cards", map[string]any{"code": "G-1", "metadata": map[string]any{"region": "north", "tier": 2}}),
		http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"order": map[string]any{"amount": 300},
		"redeemables": []any{map[string]any{"object": "voucher", "id": "G-1", "gift": map[string]any{"credits": 300}}}}, app),
		http.StatusOK)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "voucher", "parameters": map[string]any{
		"fields": []string{"id", "code", "voucher_type", "value", "gift_balance", "redemption_quantity", "redemption_count",
			"metadata", "campaign_id", "created_at", "updated_at", "active"}}}, app), http.StatusOK)
	done := waitForExport(t, e, app, exp["id"].(string))
	_, file := download(t, e, done["result"].(map[string]any)["url"].(string))
	if !strings.HasPrefix(file, "id,code,voucher_type,value,gift_balance,redemption_quantity,redemption_count,metadata,") {
		t.Fatalf("export:\n%s", file)
	}

	check := func(h resttest.Headers, campaign any) {
		t.Helper()
		v := must(t, e.Do(http.MethodGet, "/v1/vouchers/G-1", nil, h), http.StatusOK)
		g, _ := v["gift"].(map[string]any)
		red, _ := v["redemption"].(map[string]any)
		md, _ := v["metadata"].(map[string]any)
		if g["amount"] != float64(1000) || g["balance"] != float64(700) || red["quantity"] != float64(5) ||
			red["redeemed_quantity"] != float64(1) || md["region"] != "north" || md["tier"] != float64(2) || len(md) != 2 ||
			v["campaign"] != campaign {
			t.Errorf("imported G-1 = gift %v, redemption %v, metadata %v, campaign %v", g, red, md, v["campaign"])
		}
	}

	// Into a campaign of another project (the usual way codes move).
	into := resttest.App(e.NewProject("moved into a campaign"))
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", gift, into), http.StatusOK)
	r := must(t, uploadCSV(t, e, into, "/v1/campaigns/Cards/importCSV", file), http.StatusOK)
	job := e.WaitForJob(into, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || res["done_count"] != float64(1) || res["failed_count"] != float64(0) {
		t.Fatalf("campaign import = %v", job)
	}
	check(into, "Cards")

	// As a standalone code of a third project.
	standalone := resttest.App(e.NewProject("moved standalone"))
	r = must(t, uploadCSV(t, e, standalone, "/v1/vouchers/importCSV", file), http.StatusAccepted)
	job = e.WaitForJob(standalone, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || res["done_count"] != float64(1) || res["failed_count"] != float64(0) {
		t.Fatalf("voucher import = %v", job)
	}
	check(standalone, nil)

	// A metadata column that is not a JSON object is a bad row, not a key.
	r = must(t, uploadCSV(t, e, standalone, "/v1/vouchers/importCSV", "code,metadata\nBAD-1,north\n"), http.StatusAccepted)
	job = e.WaitForJob(standalone, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); res["done_count"] != float64(0) || !strings.Contains(fmt.Sprint(res), "JSON object") {
		t.Errorf("bad metadata import = %v", job)
	}
}

// Customers move the same way: an export's file imports unchanged, its
// counters and dates ignored and its metadata column read as JSON.
func TestExportedCustomersImportUnchanged(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann",
		"email": "ann@example.com", "address": map[string]any{"city": "Oslo"}, "metadata": map[string]any{"tier": "gold", "visits": 3}},
		app), http.StatusOK)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", map[string]any{"exported_object": "customer", "parameters": map[string]any{
		"fields": []string{"id", "source_id", "name", "email", "address_city", "metadata", "created_at", "updated_at",
			"orders_total_count"}}}, app), http.StatusOK)
	done := waitForExport(t, e, app, exp["id"].(string))
	_, file := download(t, e, done["result"].(map[string]any)["url"].(string))

	into := resttest.App(e.NewProject("moved customers"))
	r := must(t, uploadCSV(t, e, into, "/v1/customers/importCSV", file), http.StatusAccepted)
	job := e.WaitForJob(into, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || res["done_count"] != float64(1) || res["failed_count"] != float64(0) {
		t.Fatalf("customer import of\n%s\n= %v", file, job)
	}
	c := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, into), http.StatusOK)
	md, _ := c["metadata"].(map[string]any)
	addr, _ := c["address"].(map[string]any)
	if c["name"] != "Ann" || c["email"] != "ann@example.com" || addr["city"] != "Oslo" || md["tier"] != "gold" ||
		md["visits"] != float64(3) || len(md) != 2 {
		t.Errorf("imported customer = %v", c)
	}

	// The real service's export has counters this one does not write; they
	// are ignored too, and its customer id (another service's) is not
	// looked up when the row has a source_id.
	r = must(t, uploadCSV(t, e, into, "/v1/customers/importCSV",
		"id,source_id,name,redemptions_total_redeemed,loyalty_points,loyalty_referred_customers,metadata\n"+
			`cust_fromElsewhere1,bob,Bob,4,120,0,"{""tier"":""silver""}"`+"\n"), http.StatusAccepted)
	job = e.WaitForJob(into, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); res["done_count"] != float64(1) {
		t.Fatalf("import of the real service's columns = %v", job)
	}
	bob := must(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, into), http.StatusOK)
	if md, _ := bob["metadata"].(map[string]any); bob["name"] != "Bob" || md["tier"] != "silver" || len(md) != 1 {
		t.Errorf("bob = %v", bob)
	}
}

package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// While a voucher is in the bin its code stays reserved for every way of
// making vouchers: random codes, generation jobs, imports.
func TestTrashBinReservesBinnedCodesForGenerationAndImports(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCampaign(t, e, "Tiny", "##", "AB", nil) // four codes: P-AA … P-BB
	first, _ := must(t, addVoucher(t, e, "Tiny", map[string]any{}), http.StatusOK)["code"].(string)
	if r := e.Do(http.MethodDelete, "/v1/vouchers/"+first, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE voucher: %d %s", r.Status, r.Body)
	}
	entries := binList(t, e, app, "?filters[resource_name][conditions][$is]="+first)["data"].([]any)
	if len(entries) != 1 {
		t.Fatalf("bin entries of %s: %s", first, mustJSON(entries))
	}
	entry := entries[0].(map[string]any)

	// A generation job makes the three other codes, never the binned one.
	job := must(t, e.Do(http.MethodPost, "/v1/campaigns/Tiny/vouchers?vouchers_count=3", []byte(`{}`), app), http.StatusAccepted)
	if got := e.WaitForJob(app, job["async_action_id"].(string)); got["status"] != "DONE" {
		t.Fatalf("generation = %s", mustJSON(got))
	}
	list := must(t, e.Do(http.MethodGet, "/v1/vouchers?campaign=Tiny&limit=10", nil, app), http.StatusOK)
	if list["total"] != float64(3) || strings.Contains(mustJSON(list["vouchers"]), `"`+first+`"`) {
		t.Fatalf("generated vouchers with %s binned: %s", first, mustJSON(list))
	}
	// A random code is never the binned one: with only it left, none is found.
	if r := addVoucher(t, e, "Tiny", map[string]any{}); r.Status != http.StatusBadRequest {
		t.Fatalf("a random code with only the binned code left: %d %s", r.Status, r.Body)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/"+first, nil, app), http.StatusNotFound, "not_found", "")

	// Imports report the binned code as a duplicate row and import the others.
	r := must(t, uploadCSV(t, e, app, "/v1/campaigns/Tiny/importCSV", "Code\n"+first+"\nFRESH-1\n"), http.StatusOK)
	res := e.WaitForJob(app, r["async_action_id"].(string))["result"].(map[string]any)
	if res["done_count"] != float64(1) || res["failed_count"] != float64(1) || !strings.Contains(fmt.Sprint(res["failed"]), "trash bin") {
		t.Errorf("CSV import with a binned code = %s", mustJSON(res))
	}
	r = must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Tiny/import", []any{map[string]any{"code": first}}, app), http.StatusAccepted)
	if res := e.WaitForJob(app, r["async_action_id"].(string))["result"].(map[string]any); res["done_count"] != float64(0) ||
		!strings.Contains(fmt.Sprint(res["failed"]), "trash bin") {
		t.Errorf("JSON import with a binned code = %s", mustJSON(res))
	}
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/"+first, nil, app), http.StatusNotFound, "not_found", "")

	// Deleting the bin entry frees the code.
	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+entry["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	if got, _ := must(t, addVoucher(t, e, "Tiny", map[string]any{}), http.StatusOK)["code"].(string); got != first {
		t.Errorf("after the bin entry's delete the free code is %q, want %q", got, first)
	}
}

// A binned product keeps its SKUs' source_ids reserved too, without
// listing them as entries of their own.
func TestTrashBinProductKeepsItsSkuSourceIDs(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	prod := createProduct(t, e, app, map[string]any{"source_id": "desk", "name": "Desk"})
	must(t, e.DoJSON(http.MethodPost, "/v1/products/desk/skus", map[string]any{"source_id": "desk-oak", "sku": "Oak"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/products/desk/skus", map[string]any{"sku": "No source id"}, app), http.StatusOK)
	if r := e.Do(http.MethodDelete, "/v1/products/desk", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE product: %d %s", r.Status, r.Body)
	}
	list := binList(t, e, app, "")
	if data := list["data"].([]any); len(data) != 1 || data[0].(map[string]any)["resource_id"] != prod["id"] {
		t.Fatalf("bin after a product delete = %s", mustJSON(list))
	}
	entry := binEntryOf(t, e, app, prod["id"].(string))

	createProduct(t, e, app, map[string]any{"source_id": "table", "name": "Table"})
	wantError(t, e.DoJSON(http.MethodPost, "/v1/products/table/skus", map[string]any{"source_id": "desk-oak"}, app),
		http.StatusConflict, "duplicate_found", "bin")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "desk"}, app),
		http.StatusConflict, "duplicate_found", "bin")

	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+entry["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/products/table/skus", map[string]any{"source_id": "desk-oak"}, app), http.StatusOK)
	if n := len(binList(t, e, app, "")["data"].([]any)); n != 0 {
		t.Errorf("bin after the entry's delete has %d entries", n)
	}
}

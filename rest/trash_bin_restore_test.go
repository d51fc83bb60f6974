package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/rest/resttest"
)

// restoreEntry restores a bin entry over REST and returns the response.
func restoreEntry(e *resttest.Env, h resttest.Headers, id string) resttest.Response {
	return e.Do(http.MethodPost, "/v1/trash-bin/"+id+"/restore", nil, h)
}

// A binned voucher comes back whole (same id, code, fields, campaign
// count) over REST and GraphQL; its code is reserved meanwhile; another
// project's entry and a second restore are 404s.
func TestTrashBinRestoresVoucherOnBothTransports(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := resttest.App(e.NewProject("other"))
	discountCode(t, e, app, "Back", "BACK-1", map[string]any{"type": "PERCENT", "percent_off": 15}, nil)
	must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/BACK-1", map[string]any{"metadata": map[string]any{"tier": "gold"},
		"expiration_date": "2031-01-02T03:04:05Z", "additional_info": "kept"}, app), http.StatusOK)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "Big carts",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}}, "logic": "1"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+rule["id"].(string)+"/assignments", map[string]any{"voucher": "BACK-1"}, app), http.StatusOK)
	before := must(t, e.Do(http.MethodGet, "/v1/vouchers/BACK-1", nil, app), http.StatusOK)
	countBefore := must(t, e.Do(http.MethodGet, "/v1/campaigns/Back", nil, app), http.StatusOK)["vouchers_count"]

	for round, transport := range []string{"REST", "GraphQL"} {
		if r := e.Do(http.MethodDelete, "/v1/vouchers/BACK-1", nil, app); r.Status != http.StatusNoContent {
			t.Fatalf("%s: DELETE: %d %s", transport, r.Status, r.Body)
		}
		// The code is reserved while binned: nothing can take it, so the
		// restore never meets a taken code.
		wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Back/vouchers", map[string]any{"code": "BACK-1"}, app),
			http.StatusConflict, "duplicate_found", "bin")
		id := binEntryOf(t, e, app, before["id"].(string))["id"].(string)
		wantNotFound(t, restoreEntry(e, other, id), "bin_entry", id)
		if round == 0 {
			got := must(t, restoreEntry(e, app, id), http.StatusOK)
			if got["id"] != id || got["resource_id"] != before["id"] || got["resource_type"] != "voucher" || got["object"] != "voucher" {
				t.Errorf("restore answered %s", mustJSON(got))
			}
		} else {
			gql := e.GraphQL(app, `mutation { restoreBinEntry(id: "`+id+`") { id resourceID resourceType resourceName } }`, nil)
			if len(gql.Errors) > 0 || mustJSON(gql.Data["restoreBinEntry"]) != mustJSON(map[string]any{"id": id,
				"resourceID": before["id"], "resourceType": "voucher", "resourceName": "BACK-1"}) {
				t.Fatalf("restoreBinEntry = %+v", gql)
			}
		}
		after := must(t, e.Do(http.MethodGet, "/v1/vouchers/BACK-1", nil, app), http.StatusOK)
		if mustJSON(after) != mustJSON(before) {
			t.Errorf("%s: restored voucher\n%s\nwant\n%s", transport, mustJSON(after), mustJSON(before))
		}
		if n := must(t, e.Do(http.MethodGet, "/v1/campaigns/Back", nil, app), http.StatusOK)["vouchers_count"]; n != countBefore {
			t.Errorf("%s: campaign vouchers_count %v, want %v", transport, n, countBefore)
		}
		if l := binList(t, e, app, ""); len(l["data"].([]any)) != 0 {
			t.Errorf("%s: bin after the restore = %s", transport, mustJSON(l))
		}
		wantNotFound(t, restoreEntry(e, app, id), "bin_entry", id)
	}
	// The restored voucher is a live one: its rule assignment holds.
	v := e.DoJSON(http.MethodPost, "/v1/vouchers/BACK-1/validate", map[string]any{"order": map[string]any{"amount": 500}}, app).JSON(t)
	if v["valid"] != false {
		t.Errorf("validation of a small cart against the restored rule = %s", mustJSON(v))
	}
	// Deleting the entry of a restored-then-binned voucher still works.
	if r := e.Do(http.MethodDelete, "/v1/vouchers/BACK-1", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE again: %d %s", r.Status, r.Body)
	}
	id := binEntryOf(t, e, app, before["id"].(string))["id"].(string)
	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+id, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	wantNotFound(t, restoreEntry(e, app, id), "bin_entry", id)
}

// A product comes back with its SKUs; a SKU alone comes back under its
// product, but not once the product is gone.
func TestTrashBinRestoresProductsAndSkus(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	prod := createProduct(t, e, app, map[string]any{"source_id": "chair", "name": "Chair", "price": 1200,
		"attributes": []any{"color"}, "metadata": map[string]any{"wood": true}})
	must(t, e.DoJSON(http.MethodPost, "/v1/products/chair/skus", map[string]any{"source_id": "chair-red", "sku": "Red",
		"price": 1300, "attributes": map[string]any{"color": "red"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/products/chair/skus", map[string]any{"sku": "No source id"}, app), http.StatusOK)
	before := must(t, e.Do(http.MethodGet, "/v1/products/chair", nil, app), http.StatusOK)
	skusBefore := must(t, e.Do(http.MethodGet, "/v1/products/chair/skus", nil, app), http.StatusOK)

	if r := e.Do(http.MethodDelete, "/v1/products/chair", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE product: %d %s", r.Status, r.Body)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "chair"}, app),
		http.StatusConflict, "duplicate_found", "bin")
	id := binEntryOf(t, e, app, prod["id"].(string))["id"].(string)
	gql := e.GraphQL(app, `mutation { restoreBinEntry(id: "`+id+`") { resourceType resourceName } }`, nil)
	if len(gql.Errors) > 0 || mustJSON(gql.Data["restoreBinEntry"]) != `{"resourceName":"Chair","resourceType":"product"}` {
		t.Fatalf("restoreBinEntry = %+v", gql)
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/products/chair", nil, app), http.StatusOK); mustJSON(got) != mustJSON(before) {
		t.Errorf("restored product\n%s\nwant\n%s", mustJSON(got), mustJSON(before))
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/products/chair/skus", nil, app), http.StatusOK); mustJSON(got) != mustJSON(skusBefore) {
		t.Errorf("restored SKUs\n%s\nwant\n%s", mustJSON(got), mustJSON(skusBefore))
	}
	// The product's reservations went with its entry: deleting and
	// restoring a SKU alone works, the name is the SKU's again.
	skuBefore := must(t, e.Do(http.MethodGet, "/v1/skus/chair-red", nil, app), http.StatusOK)
	if r := e.Do(http.MethodDelete, "/v1/products/chair/skus/chair-red", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE SKU: %d %s", r.Status, r.Body)
	}
	skuEntry := binEntryOf(t, e, app, skuBefore["id"].(string))["id"].(string)
	must(t, restoreEntry(e, app, skuEntry), http.StatusOK)
	if got := must(t, e.Do(http.MethodGet, "/v1/skus/chair-red", nil, app), http.StatusOK); mustJSON(got) != mustJSON(skuBefore) {
		t.Errorf("restored SKU\n%s\nwant\n%s", mustJSON(got), mustJSON(skuBefore))
	}

	// A SKU whose product went for good cannot come back; its entry stays.
	if r := e.Do(http.MethodDelete, "/v1/products/chair/skus/chair-red", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE SKU: %d %s", r.Status, r.Body)
	}
	if r := e.Do(http.MethodDelete, "/v1/products/chair?force=true", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE product force: %d %s", r.Status, r.Body)
	}
	skuEntry = binEntryOf(t, e, app, skuBefore["id"].(string))["id"].(string)
	wantError(t, restoreEntry(e, app, skuEntry), http.StatusBadRequest, "not_restorable", "restore the product first")
	binEntryOf(t, e, app, skuBefore["id"].(string))
}

// A row that somehow took the binned name (written past the API's checks)
// makes the restore a 409 that writes nothing: the entry stays.
func TestTrashBinRestoreConflictWritesNothing(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	prod := createProduct(t, e, app, map[string]any{"source_id": "sofa", "name": "Sofa"})
	if r := e.Do(http.MethodDelete, "/v1/products/sofa", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE product: %d %s", r.Status, r.Body)
	}
	ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID}), e.DB.Client)
	e.DB.Client.Product.Create().SetSourceID("sofa").SetName("Intruder").ExecX(ctx)
	id := binEntryOf(t, e, app, prod["id"].(string))["id"].(string)
	wantError(t, restoreEntry(e, app, id), http.StatusConflict, "duplicate_found", "cannot be restored")
	binEntryOf(t, e, app, prod["id"].(string))
	if got := must(t, e.Do(http.MethodGet, "/v1/products/sofa", nil, app), http.StatusOK); got["name"] != "Intruder" {
		t.Errorf("product after the refused restore = %s", mustJSON(got))
	}
}

// Two restores of one entry at once: one restores, the other finds no
// entry; the voucher exists once and is counted once.
func TestTrashBinConcurrentRestoresOneWins(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	v := discountCode(t, e, app, "Race", "RACE-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Race/vouchers", map[string]any{"code": "RACE-2"}, app), http.StatusOK)
	if r := e.Do(http.MethodDelete, "/v1/vouchers/RACE-1", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	id := binEntryOf(t, e, app, v["id"].(string))["id"].(string)
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() { statuses[i] = restoreEntry(e, app, id).Status })
	}
	wg.Wait()
	ok, lost := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusNotFound, http.StatusConflict:
			lost++
		}
	}
	if ok != 1 || lost != 1 {
		t.Fatalf("statuses of two restores = %v", statuses)
	}
	must(t, e.Do(http.MethodGet, "/v1/vouchers/RACE-1", nil, app), http.StatusOK)
	if n := must(t, e.Do(http.MethodGet, "/v1/campaigns/Race", nil, app), http.StatusOK)["vouchers_count"]; n != float64(2) {
		t.Errorf("vouchers_count after two restores = %v", n)
	}
}

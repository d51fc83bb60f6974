package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// jobRowErrors maps each failed row of a catalogue job's result to its
// error key.
func jobRowErrors(t *testing.T, job map[string]any) map[string]any {
	t.Helper()
	out := map[string]any{}
	results, _ := job["result"].(map[string]any)["results"].([]any)
	for _, r := range results {
		row := r.(map[string]any)
		if e, ok := row["error"].(map[string]any); ok {
			out[row["source_id"].(string)] = e["key"]
		}
	}
	return out
}

// A binned product's or SKU's source_id stays taken for the CSV imports
// and the bulk product upserts: the row is reported as a duplicate, the
// other rows are imported, and the binned resource is not brought back.
func TestTrashBinReservesSourceIDsForCatalogueImports(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createProduct(t, e, app, map[string]any{"source_id": "lamp", "name": "Lamp"})
	createProduct(t, e, app, map[string]any{"source_id": "desk", "name": "Desk"})
	must(t, e.DoJSON(http.MethodPost, "/v1/products/desk/skus", map[string]any{"source_id": "desk-oak", "sku": "Oak"}, app), http.StatusOK)
	for _, path := range []string{"/v1/products/lamp", "/v1/products/desk/skus/desk-oak"} {
		if r := e.Do(http.MethodDelete, path, nil, app); r.Status != http.StatusNoContent {
			t.Fatalf("DELETE %s: %d %s", path, r.Status, r.Body)
		}
	}

	r := must(t, uploadCSV(t, e, app, "/v1/products/importCSV", "name,source_id\nLamp again,lamp\nChair,chair\n"), http.StatusOK)
	job := e.WaitForJob(app, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || res["done_count"] != float64(1) || res["failed_count"] != float64(1) ||
		mustJSON(jobRowErrors(t, job)) != `{"lamp":"duplicate_found"}` {
		t.Fatalf("products import = %s", mustJSON(job))
	}
	must(t, e.Do(http.MethodGet, "/v1/products/chair", nil, app), http.StatusOK)
	wantError(t, e.Do(http.MethodGet, "/v1/products/lamp", nil, app), http.StatusNotFound, "not_found", "")

	r = must(t, uploadCSV(t, e, app, "/v1/skus/importCSV", "source_id,product_id,sku\ndesk-oak,desk,Oak again\ndesk-pine,desk,Pine\n"), http.StatusOK)
	job = e.WaitForJob(app, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || res["done_count"] != float64(1) || res["failed_count"] != float64(1) ||
		mustJSON(jobRowErrors(t, job)) != `{"desk-oak":"duplicate_found"}` {
		t.Fatalf("SKU import = %s", mustJSON(job))
	}
	must(t, e.Do(http.MethodGet, "/v1/skus/desk-pine", nil, app), http.StatusOK)
	wantError(t, e.Do(http.MethodGet, "/v1/skus/desk-oak", nil, app), http.StatusNotFound, "not_found", "")

	// The bulk upserts (POST /v1/products/bulk/async, …/metadata/async)
	// create by source_id too.
	for path, body := range map[string]any{
		"/v1/products/bulk/async":     []any{map[string]any{"source_id": "lamp", "name": "Lamp"}, map[string]any{"source_id": "sofa"}},
		"/v1/products/metadata/async": map[string]any{"source_ids": []any{"lamp", "sofa"}, "metadata": map[string]any{"k": "v"}},
	} {
		r := must(t, e.DoJSON(http.MethodPost, path, body, app), http.StatusAccepted)
		job := e.WaitForJob(app, r["async_action_id"].(string))
		if mustJSON(jobRowErrors(t, job)) != `{"lamp":"duplicate_found"}` {
			t.Errorf("%s = %s", path, mustJSON(job))
		}
	}
	wantError(t, e.Do(http.MethodGet, "/v1/products/lamp", nil, app), http.StatusNotFound, "not_found", "")
	must(t, e.Do(http.MethodGet, "/v1/products/sofa", nil, app), http.StatusOK)

	// Once the entry goes, the import takes the name.
	entry := binEntryOf(t, e, app, binList(t, e, app, "?filters[resource_type][conditions][$is]=product")["data"].([]any)[0].(map[string]any)["resource_id"].(string))
	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+entry["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	r = must(t, uploadCSV(t, e, app, "/v1/products/importCSV", "name,source_id\nLamp again,lamp\n"), http.StatusOK)
	if job := e.WaitForJob(app, r["async_action_id"].(string)); len(jobRowErrors(t, job)) != 0 {
		t.Errorf("import after the entry's delete = %s", mustJSON(job))
	}
	must(t, e.Do(http.MethodGet, "/v1/products/lamp", nil, app), http.StatusOK)
}

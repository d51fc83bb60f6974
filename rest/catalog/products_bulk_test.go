package catalog_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

var asyncIDRE = regexp.MustCompile(`^aa_[0-9a-f]{18}$`)

// startJob posts a bulk request, expects 202 {async_action_id} and
// returns the finished job.
func startJob(t *testing.T, e *resttest.Env, h resttest.Headers, path string, body []byte) map[string]any {
	t.Helper()
	r := resttest.Must(t, e.Do(http.MethodPost, path, body, h), http.StatusAccepted)
	id, _ := r["async_action_id"].(string)
	if !asyncIDRE.MatchString(id) || len(r) != 1 {
		t.Fatalf("POST %s = %v", path, r)
	}
	return e.WaitForJob(h, id)
}

func TestProductsBulkAndMetadataAsync(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateProduct(t, e, app, map[string]any{"source_id": "a", "name": "A", "price": 100, "metadata": map[string]any{"keep": 1}})

	job := startJob(t, e, app, "/v1/products/bulk/async",
		[]byte(`[{"source_id":"a","price":150,"attributes":["size"]},{"source_id":"b","name":"B","price":200}]`))
	res, _ := job["result"].(map[string]any)
	if job["status"] != "DONE" || job["type"] != "PRODUCTS.BULK_UPDATE" || res["done_count"] != float64(2) ||
		res["failed_count"] != float64(0) {
		t.Fatalf("bulk job = %v", job)
	}
	results := res["results"].([]any)
	if a, b := results[0].(map[string]any), results[1].(map[string]any); a["source_id"] != "a" || a["found"] != true ||
		a["updated"] != true || b["source_id"] != "b" || b["found"] != false || b["updated"] != true {
		t.Errorf("bulk results = %v", results)
	}
	if a := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/a", nil, app), http.StatusOK); a["price"] != float64(150) || a["name"] != "A" ||
		len(a["attributes"].([]any)) != 1 {
		t.Errorf("a after bulk = %v", a)
	}
	if b := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/b", nil, app), http.StatusOK); b["name"] != "B" || b["price"] != float64(200) {
		t.Errorf("b after bulk = %v", b)
	}

	job = startJob(t, e, app, "/v1/products/metadata/async", []byte(`{"source_ids":["a","c"],"metadata":{"color":"red"}}`))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || job["type"] != "PRODUCTS.METADATA_UPDATE" || res["done_count"] != float64(2) {
		t.Fatalf("metadata job = %v", job)
	}
	if a := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/a", nil, app), http.StatusOK)["metadata"].(map[string]any); a["color"] != "red" || a["keep"] != float64(1) {
		t.Errorf("a's metadata = %v (merged: both keys)", a)
	}
	if c := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/c", nil, app), http.StatusOK); c["metadata"].(map[string]any)["color"] != "red" {
		t.Errorf("c (upserted) = %v", c)
	}

	// What the SDK sends without content is a job with nothing to do.
	for path, body := range map[string]string{"/v1/products/bulk/async": "", "/v1/products/metadata/async": "{}"} {
		if job := startJob(t, e, app, path, []byte(body)); job["status"] != "DONE" {
			t.Errorf("empty %s = %v", path, job)
		}
	}
	// Bad items are refused before anything is scheduled.
	for _, body := range []string{`[{"name":"no source"}]`, `[{"source_id":"x","price":-1}]`, `{"source_id":"x"}`,
		`[{"source_id":"x","price":1e400}]`} {
		r := e.Do(http.MethodPost, "/v1/products/bulk/async", []byte(body), app)
		if got := r.JSON(t); r.Status != http.StatusBadRequest || got["key"] == nil {
			t.Errorf("bulk %s: %d %s", body, r.Status, r.Body)
		}
	}
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/products/metadata/async", map[string]any{"source_ids": []string{"a"}}, app),
		http.StatusBadRequest, "invalid_payload", "metadata")
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products", nil, app), http.StatusOK); l["total"] != float64(3) {
		t.Errorf("%v products, want a, b, c", l["total"])
	}
}

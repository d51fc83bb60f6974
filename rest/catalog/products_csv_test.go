package catalog_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestProductsAndSkusImportCSV(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateProduct(t, e, app, map[string]any{"source_id": "old", "name": "Old name", "price": 100})

	r := resttest.Must(t, resttest.UploadCSV(t, e, app, "/v1/products/importCSV",
		"name,source_id,price,attributes,image_url,season\n"+
			"Renamed,old,999,,,\n"+
			"Tee,tee,1500,\"color,size\",https://img.example/t.png,summer\n"+
			"No source,,200,,,\n"), http.StatusOK)
	job := e.WaitForJob(app, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); job["status"] != "DONE" || job["type"] != "PRODUCTS.IMPORT_CSV" || res["done_count"] != float64(3) {
		t.Fatalf("products import = %v", job)
	}
	old := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/old", nil, app), http.StatusOK)
	if old["name"] != "Renamed" || old["price"] != float64(100) {
		t.Errorf("a known source_id is only renamed: %v", old)
	}
	tee := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/tee", nil, app), http.StatusOK)
	if tee["price"] != float64(1500) || len(tee["attributes"].([]any)) != 2 || tee["image_url"] != "https://img.example/t.png" ||
		tee["metadata"].(map[string]any)["season"] != "summer" {
		t.Errorf("imported product = %v", tee)
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products", nil, app), http.StatusOK); l["total"] != float64(3) {
		t.Errorf("%v products after the import, want 3", l["total"])
	}

	r = resttest.Must(t, resttest.UploadCSV(t, e, app, "/v1/skus/importCSV",
		"source_id,product_id,sku,price,attributes,ean\n"+
			"tee-red,tee,Red,1600,\"{\"\"color\"\":\"\"red\"\"}\",123\n"+
			"tee-blue,"+tee["id"].(string)+",Blue,1700,,\n"+
			"lost,no-such-product,X,1,,\n"), http.StatusOK)
	job = e.WaitForJob(app, r["async_action_id"].(string))
	res := job["result"].(map[string]any)
	if job["status"] != "DONE" || job["type"] != "SKUS.IMPORT_CSV" || res["done_count"] != float64(2) || res["failed_count"] != float64(1) {
		t.Fatalf("SKU import = %v", job)
	}
	red := resttest.Must(t, e.Do(http.MethodGet, "/v1/skus/tee-red", nil, app), http.StatusOK)
	if red["product_id"] != tee["id"] || red["price"] != float64(1600) || red["attributes"].(map[string]any)["color"] != "red" ||
		red["metadata"].(map[string]any)["ean"] != "123" {
		t.Errorf("imported SKU = %v", red)
	}
	// Importing again updates sku and price of the existing SKU.
	r = resttest.Must(t, resttest.UploadCSV(t, e, app, "/v1/skus/importCSV", "source_id,product_id,sku,price\ntee-red,tee,Crimson,1650\n"), http.StatusOK)
	e.WaitForJob(app, r["async_action_id"].(string))
	if again := resttest.Must(t, e.Do(http.MethodGet, "/v1/skus/tee-red", nil, app), http.StatusOK); again["sku"] != "Crimson" || again["price"] != float64(1650) ||
		again["id"] != red["id"] {
		t.Errorf("re-imported SKU = %v", again)
	}

	// Bad files are refused before anything is scheduled.
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/products/importCSV", map[string]any{}, app), http.StatusBadRequest, "invalid_payload", "'file'")
	for path, csv := range map[string]string{
		"/v1/products/importCSV": "source_id,price\nx,1\n",
		"/v1/skus/importCSV":     "source_id,sku\nx,y\n",
	} {
		resttest.WantError(t, resttest.UploadCSV(t, e, app, path, csv), http.StatusBadRequest, "invalid_payload", "column")
	}
	resttest.WantError(t, resttest.UploadCSV(t, e, app, "/v1/products/importCSV", "name,price\nA,-5\n"), http.StatusBadRequest, "invalid_payload", "Line 2")
	resttest.WantError(t, resttest.UploadCSV(t, e, app, "/v1/products/importCSV", "name,price\nA,1.5\n"), http.StatusBadRequest, "invalid_payload", "Line 2")
	resttest.WantError(t, resttest.UploadCSV(t, e, app, "/v1/skus/importCSV", "source_id,product_id,attributes\nx,tee,[1]\n"), http.StatusBadRequest, "invalid_payload", "Line 2")
}

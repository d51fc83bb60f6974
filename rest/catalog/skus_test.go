package catalog_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestSkusUnderAProduct(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	p := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "phone", "name": "Phone", "attributes": []string{"color", "memory"}})
	other := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "case"})

	s := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/phone/skus", map[string]any{"source_id": "phone-blue-64",
		"sku": "Blue 64", "price": 50000, "currency": "EUR", "attributes": map[string]string{"color": "blue", "memory": "64"},
		"metadata": map[string]any{"ean": "123"}}, app), http.StatusOK)
	sid, _ := s["id"].(string)
	if !skuIDRE.MatchString(sid) || s["object"] != "sku" || s["product_id"] != p["id"] || s["currency"] != "EUR" ||
		s["attributes"].(map[string]any)["color"] != "blue" || s["updated_at"] != nil || s["image_url"] != nil {
		t.Errorf("created SKU = %v", s)
	}
	// A SKU with only a price (the Python SDK's test) is fine: nullable fields present.
	bare := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/"+p["id"].(string)+"/skus", map[string]any{"price": 100}, app), http.StatusOK)
	for _, k := range []string{"source_id", "sku", "currency", "image_url", "updated_at"} {
		if v, ok := bare[k]; !ok || v != nil {
			t.Errorf("bare SKU %s = %v (present %v)", k, v, ok)
		}
	}
	// Upsert by source_id and by id.
	again := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/phone/skus", map[string]any{"source_id": "phone-blue-64", "price": 45000}, app), http.StatusOK)
	if again["id"] != sid || again["price"] != float64(45000) || again["sku"] != "Blue 64" || again["updated_at"] == nil {
		t.Errorf("upserted SKU = %v", again)
	}
	if byID := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/phone/skus", map[string]any{"id": sid, "sku": "Blue 64GB"}, app), http.StatusOK); byID["id"] != sid || byID["sku"] != "Blue 64GB" {
		t.Errorf("upserted by id = %v", byID)
	}
	// A SKU source_id is unique in the project: another product cannot take it, and nothing changes.
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/products/case/skus", map[string]any{"source_id": "phone-blue-64", "price": 1}, app),
		http.StatusConflict, "duplicate_found", "phone-blue-64")
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/products/case/skus", map[string]any{"id": sid, "price": 1}, app), "sku", sid)

	// Reads: /v1/skus by id and by source_id; the product's list and its embedded list.
	for _, ref := range []string{sid, "phone-blue-64"} {
		got := resttest.Must(t, e.Do(http.MethodGet, "/v1/skus/"+ref, nil, app), http.StatusOK)
		if got["id"] != sid || got["price"] != float64(45000) {
			t.Errorf("GET /v1/skus/%s = %v", ref, got)
		}
		if _, ok := got["product"]; ok {
			t.Errorf("GET /v1/skus embeds the product: %v", got)
		}
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/skus/nope", nil, app), "sku", "nope")
	list := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/phone/skus?order=created_at", nil, app), http.StatusOK)
	if list["object"] != "list" || list["data_ref"] != "skus" || list["total"] != float64(2) ||
		list["skus"].([]any)[0].(map[string]any)["id"] != sid {
		t.Errorf("SKU list = %v", list)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/products/nope/skus", nil, app), "product", "nope")
	got := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/phone", nil, app), http.StatusOK)
	if skus := got["skus"].(map[string]any); skus["total"] != float64(2) || skus["data"].([]any)[0].(map[string]any)["id"] != sid {
		t.Errorf("product's skus = %v", skus)
	}
	products := resttest.Must(t, e.Do(http.MethodGet, "/v1/products?order=created_at", nil, app), http.StatusOK)
	first := products["products"].([]any)[0].(map[string]any)
	if products["data_ref"] != "products" || first["id"] != p["id"] || first["skus"].(map[string]any)["total"] != float64(2) ||
		products["products"].([]any)[1].(map[string]any)["skus"].(map[string]any)["total"] != float64(0) {
		t.Errorf("product list = %v", products)
	}

	// PUT: sent fields only; another product's path is 404 sku.
	up := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/products/phone/skus/phone-blue-64", map[string]any{"currency": "USD",
		"source_id": "renamed", "unknown": true}, app), http.StatusOK)
	if up["currency"] != "USD" || up["source_id"] != "phone-blue-64" || up["price"] != float64(45000) {
		t.Errorf("PUT SKU = %v", up)
	}
	resttest.WantNotFound(t, e.DoJSON(http.MethodPut, "/v1/products/case/skus/"+sid, map[string]any{"currency": "PLN"}, app), "sku", sid)
	resttest.WantError(t, e.DoJSON(http.MethodPut, "/v1/products/phone/skus/"+sid, map[string]any{"price": -1}, app),
		http.StatusBadRequest, "invalid_payload", "price")

	// DELETE: 404 for the wrong product or SKU, 204, then gone.
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/products/"+other["id"].(string)+"/skus/"+sid, nil, app), "sku", sid)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/products/nope/skus/"+sid, nil, app), "product", "nope")
	if r := e.Do(http.MethodDelete, "/v1/products/phone/skus/"+sid+"?force=true", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE SKU: %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/skus/"+sid, nil, app), "sku", sid)
	// Deleting the product deletes its SKUs.
	if r := e.Do(http.MethodDelete, "/v1/products/phone", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE product: %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/skus/"+bare["id"].(string), nil, app), "sku", bare["id"].(string))
}

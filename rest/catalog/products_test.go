package catalog_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

var (
	productIDRE = regexp.MustCompile(`^prod_[0-9a-f]{18}$`)
	skuIDRE     = regexp.MustCompile(`^sku_[0-9a-f]{18}$`)
)

func TestProductUpsertReadUpdateDelete(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)

	created := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "shirt", "name": "Shirt", "price": 2500,
		"attributes": []string{"color", "size"}, "metadata": map[string]any{"season": "summer"}})
	id, _ := created["id"].(string)
	if !productIDRE.MatchString(id) || created["object"] != "product" || created["source_id"] != "shirt" ||
		created["price"] != float64(2500) || created["updated_at"] != nil || !resttest.TimestampRE.MatchString(created["created_at"].(string)) {
		t.Errorf("created = %v", created)
	}
	if v, ok := created["image_url"]; !ok || v != nil {
		t.Errorf("image_url must be present and null: %v", created)
	}
	if _, ok := created["skus"]; ok {
		t.Errorf("a created product carries no skus: %v", created)
	}

	// The same source_id again: the same product, with the sent fields applied.
	again := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "shirt", "price": 2700})
	if again["id"] != id || again["price"] != float64(2700) || again["name"] != "Shirt" || again["updated_at"] == nil ||
		again["metadata"].(map[string]any)["season"] != "summer" {
		t.Errorf("upserted = %v", again)
	}
	// Only the source_id: the product as it is (nothing to change, updated_at too).
	if same := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "shirt"}); same["id"] != id || same["price"] != float64(2700) ||
		same["updated_at"] != again["updated_at"] {
		t.Errorf("upsert without fields = %v", same)
	}
	// By id too; an unknown id is 404.
	byID := resttest.CreateProduct(t, e, app, map[string]any{"id": id, "image_url": "https://img.example/s.png"})
	if byID["id"] != id || byID["image_url"] != "https://img.example/s.png" || byID["price"] != float64(2700) {
		t.Errorf("upserted by id = %v", byID)
	}
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"id": "prod_nope", "name": "x"}, app), "product", "prod_nope")
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products", nil, app), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("after three creates of one product: %v", l)
	}

	// GET by id and by source_id: the product with its SKU list.
	for _, ref := range []string{id, "shirt"} {
		got := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/"+ref, nil, app), http.StatusOK)
		skus, _ := got["skus"].(map[string]any)
		if got["id"] != id || skus == nil || skus["object"] != "list" || skus["data_ref"] != "data" ||
			skus["total"] != float64(0) || len(skus["data"].([]any)) != 0 {
			t.Errorf("GET /v1/products/%s = %v", ref, got)
		}
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/products/no-such-source", nil, app), "product", "no-such-source")

	// PUT changes the sent fields only; id and source_id stay.
	up := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/products/shirt", map[string]any{"id": "prod_other", "source_id": "other",
		"name": "Shirt v2", "attributes": []string{"color"}}, app), http.StatusOK)
	if up["id"] != id || up["source_id"] != "shirt" || up["name"] != "Shirt v2" || up["price"] != float64(2700) ||
		len(up["attributes"].([]any)) != 1 {
		t.Errorf("PUT = %v", up)
	}
	resttest.WantNotFound(t, e.DoJSON(http.MethodPut, "/v1/products/nope", map[string]any{"name": "x"}, app), "product", "nope")

	// Bad input: the error object, nothing written.
	for _, body := range []string{`{"source_id":"bad","price":-1}`, `{"source_id":"bad","price":10000000000001}`,
		`{"source_id":"bad","price":10.5}`, `{"source_id":"bad","price":"10"}`, `{"source_id":""}`,
		`{"source_id":"bad","attributes":[""]}`, `{"source_id":"bad","metadata":{"k":1e400}}`} {
		r := e.Do(http.MethodPost, "/v1/products", []byte(body), app)
		if got := r.JSON(t); r.Status != http.StatusBadRequest || got["code"] != float64(400) || got["key"] == nil {
			t.Errorf("POST %s: %d %s", body, r.Status, r.Body)
		}
	}
	resttest.WantError(t, e.DoJSON(http.MethodPut, "/v1/products/shirt", map[string]any{"price": -5}, app),
		http.StatusBadRequest, "invalid_payload", "price")
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/products/bad", nil, app), "product", "bad")

	// DELETE (by source_id): 204, then 404; the product is in the bin,
	// which keeps its source_id until the bin entry is deleted for good.
	resttest.WantError(t, e.Do(http.MethodDelete, "/v1/products/shirt?force=maybe", nil, app), http.StatusBadRequest, "invalid_query_params", "force")
	if r := e.Do(http.MethodDelete, "/v1/products/shirt", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/products/"+id, nil, app), "product", id)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/products/shirt?force=true", nil, app), "product", "shirt")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "shirt"}, app),
		http.StatusConflict, "duplicate_found", "bin")
	entry := resttest.BinEntryOf(t, e, app, id)
	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+entry["id"].(string), nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	if reborn := resttest.CreateProduct(t, e, app, map[string]any{"source_id": "shirt"}); reborn["id"] == id || reborn["name"] != nil {
		t.Errorf("after the delete = %v", reborn)
	}
}

func TestProductListsPageOrderAndDates(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	var ids []string
	for _, src := range []string{"a", "b", "c"} {
		ids = append(ids, resttest.CreateProduct(t, e, app, map[string]any{"source_id": src, "name": strings.ToUpper(src)})["id"].(string))
		resttest.WaitABit()
	}
	names := func(l map[string]any) string {
		var out []string
		for _, p := range l["products"].([]any) {
			out = append(out, p.(map[string]any)["source_id"].(string))
		}
		return strings.Join(out, ",")
	}
	for query, want := range map[string]string{
		"":                         "c,b,a",
		"?limit=2":                 "c,b",
		"?limit=2&page=2":          "a",
		"?order=created_at":        "a,b,c",
		"?order=-name":             "c,b,a",
		"?order=source_id&limit=1": "a",
		"?page=100":                "",
	} {
		l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products"+query, nil, app), http.StatusOK)
		if got := names(l); got != want || l["total"] != float64(3) {
			t.Errorf("GET /v1/products%s = %s (total %v), want %s", query, got, l["total"], want)
		}
	}
	b := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/b", nil, app), http.StatusOK)["created_at"].(string)
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products?start_date="+b, nil, app), http.StatusOK); names(l) != "c,b" || l["total"] != float64(2) {
		t.Errorf("start_date = %v", l)
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products?end_date="+b, nil, app), http.StatusOK); names(l) != "b,a" || l["total"] != float64(2) {
		t.Errorf("end_date = %v", l)
	}
	for _, q := range []string{"limit=0", "limit=101", "page=0", "page=101", "order=code", "start_date=yesterday", "limit=x"} {
		resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/products?"+q, nil, app), http.StatusBadRequest, "invalid_query_params")
		resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/products/a/skus?"+q, nil, app), http.StatusBadRequest, "invalid_query_params")
	}
	for i := 0; i < 3; i++ {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/a/skus", map[string]any{"sku": string(rune('x' + i))}, app), http.StatusOK)
		resttest.WaitABit()
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/a/skus?limit=2&page=2", nil, app), http.StatusOK); l["total"] != float64(3) ||
		len(l["skus"].([]any)) != 1 || l["skus"].([]any)[0].(map[string]any)["sku"] != "x" {
		t.Errorf("SKU page 2 = %v", l)
	}
	_ = ids
}

func TestProductsBelongToTheirProject(t *testing.T) {
	e := resttest.New(t)
	a, b := resttest.App(e.Project), resttest.App(e.NewProject("B"))
	p := resttest.CreateProduct(t, e, a, map[string]any{"source_id": "mug", "name": "Mug"})
	s := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/mug/skus", map[string]any{"source_id": "mug-red"}, a), http.StatusOK)
	id, sid := p["id"].(string), s["id"].(string)

	for _, ref := range []string{id, "mug"} {
		resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/products/"+ref, nil, b), "product", ref)
		resttest.WantNotFound(t, e.DoJSON(http.MethodPut, "/v1/products/"+ref, map[string]any{"name": "Stolen"}, b), "product", ref)
		resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/products/"+ref, nil, b), "product", ref)
		resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/products/"+ref+"/skus", map[string]any{"sku": "x"}, b), "product", ref)
		resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/products/"+ref+"/skus", nil, b), "product", ref)
	}
	for _, ref := range []string{sid, "mug-red"} {
		resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/skus/"+ref, nil, b), "sku", ref)
	}
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"id": id, "name": "Stolen"}, b), "product", id)
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products", nil, b), http.StatusOK); l["total"] != float64(0) {
		t.Errorf("project B's list = %v", l)
	}
	// The same source_id in project B is B's own product.
	mine := resttest.CreateProduct(t, e, b, map[string]any{"source_id": "mug", "name": "B's mug"})
	if mine["id"] == id {
		t.Errorf("project B upserted project A's product: %v", mine)
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/mug", nil, a), http.StatusOK); got["name"] != "Mug" {
		t.Errorf("project A's product = %v", got)
	}
}

// Concurrent creates of one new source_id (real parallelism on
// PostgreSQL: one INSERT … ON CONFLICT each) yield one product, and every
// request answers 200 with its id.
func TestConcurrentProductUpsertsMakeOneProduct(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	const n = 12
	ids := make([]string, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "race", "price": 100 + i}, app)
			statuses[i] = r.Status
			if r.Status == http.StatusOK {
				ids[i], _ = r.JSON(t)["id"].(string)
			}
		}()
	}
	wg.Wait()
	for i := range n {
		if statuses[i] != http.StatusOK || ids[i] != ids[0] {
			t.Fatalf("request %d: %d %q (first %q)", i, statuses[i], ids[i], ids[0])
		}
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products", nil, app), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("%v products after %d concurrent upserts", l["total"], n)
	}
	// The same for SKUs under it.
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.DoJSON(http.MethodPost, "/v1/products/race/skus", map[string]any{"source_id": "race-sku", "price": i}, app).Status
		}()
	}
	wg.Wait()
	for i := range n {
		if statuses[i] != http.StatusOK {
			t.Fatalf("SKU request %d: %d", i, statuses[i])
		}
	}
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/products/race/skus", nil, app), http.StatusOK); l["total"] != float64(1) {
		t.Errorf("%v SKUs after %d concurrent upserts", l["total"], n)
	}
}

// OAuth tokens: products (and skus for the SKU routes) or api open the
// catalogue; another area's scope does not.
func TestProductRoutesTakeTheirScopes(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	products := resttest.Bearer(e.Token(app, "products"))
	skus := resttest.Bearer(e.Token(app, "skus"))
	vouchers := resttest.Bearer(e.Token(app, "vouchers"))
	resttest.CreateProduct(t, e, products, map[string]any{"source_id": "scoped"})
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/products/scoped/skus", map[string]any{"source_id": "scoped-1"}, skus), http.StatusOK)
	resttest.Must(t, e.Do(http.MethodGet, "/v1/skus/scoped-1", nil, skus), http.StatusOK)
	resttest.Must(t, e.Do(http.MethodGet, "/v1/skus/scoped-1", nil, products), http.StatusOK)
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/products/scoped", nil, skus), http.StatusForbidden, "forbidden")
	for _, path := range []string{"/v1/products/scoped", "/v1/skus/scoped-1"} {
		resttest.WantErrorKey(t, e.Do(http.MethodGet, path, nil, vouchers), http.StatusForbidden, "forbidden")
	}
}

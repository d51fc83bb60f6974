package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// Customers move in from a CSV file: the good rows are written (a known
// source_id is updated), the bad ones reported by row number.
func TestCustomersImportCSV(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Old"}, app), http.StatusOK)
	r := must(t, uploadCSV(t, e, app, "/v1/customers/importCSV",
		"\ufeffSource_id,Name,Email,Birthdate,Address_City,Address_Country,loyalty_tier\n"+
			"ann,Ann,ann@example.com,1990-04-01,Oslo,NO,gold\n"+
			"bob,Bob,not-an-email,,,,\n"+
			"cid,Cid,cid@example.com,1990-13-40,,,\n"+
			"dan,Dan,dan@example.com,,Rome,IT,silver\n"+
			"eve,Eve\n"), http.StatusAccepted)
	aa := e.WaitForJob(app, r["async_action_id"].(string))
	res := aa["result"].(map[string]any)
	if aa["status"] != "DONE" || aa["type"] != "CUSTOMERS.IMPORT_CSV" || res["done_count"] != float64(2) || res["failed_count"] != float64(3) {
		t.Fatalf("import = %v", aa)
	}
	rows := map[float64]string{}
	for _, f := range res["failed"].([]any) {
		f := f.(map[string]any)
		rows[f["row"].(float64)] = fmt.Sprint(f["source_id"], " ", f["reason"])
	}
	if !strings.Contains(rows[2], "bob") || !strings.Contains(rows[2], "e-mail") || !strings.Contains(rows[3], "birthday") ||
		!strings.Contains(rows[5], "fields") {
		t.Errorf("failed rows = %v", res["failed"])
	}
	ann := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)
	if ann["name"] != "Ann" || ann["email"] != "ann@example.com" || ann["metadata"].(map[string]any)["loyalty_tier"] != "gold" ||
		ann["address"].(map[string]any)["city"] != "Oslo" {
		t.Errorf("ann = %v", ann)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, app), http.StatusNotFound, "not_found", "bob")
	if list := must(t, e.Do(http.MethodGet, "/v1/customers?limit=100", nil, app), http.StatusOK); list["total"] != float64(2) {
		t.Errorf("customers = %v, want ann and dan", list["total"])
	}

	// Refused before anything is scheduled; over the limit: 413.
	wantError(t, uploadCSV(t, e, app, "/v1/customers/importCSV", "Source_id\n"), http.StatusBadRequest, "invalid_payload", "no rows")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers/importCSV", map[string]any{}, app), http.StatusBadRequest, "invalid_payload", "multipart")
	wantError(t, uploadCSV(t, e, app, "/v1/vouchers/importCSV", "Code\n"+strings.Repeat(strings.Repeat("X", 199)+"\n", 60_000)),
		http.StatusRequestEntityTooLarge, "payload_too_large", "")
	jobs := must(t, e.Do(http.MethodGet, "/v1/async-actions?limit=100", nil, app), http.StatusOK)
	if n := strings.Count(fmt.Sprint(jobs), "IMPORT_CSV"); n != 1 {
		t.Errorf("%d import jobs, want 1 (refused requests schedule nothing)", n)
	}

	// The same import through GraphQL (a multipart upload).
	gql := graphQLUpload(t, e, app, `mutation($f: Upload!) { importCustomersCSV(file: $f) { id type } }`, "Source_id,Name\nfay,Fay\n")
	id := gql["importCustomersCSV"].(map[string]any)["id"].(string)
	if done := e.WaitForJob(app, id); done["result"].(map[string]any)["done_count"] != float64(1) {
		t.Errorf("GraphQL import = %v", done)
	}
	must(t, e.Do(http.MethodGet, "/v1/customers/fay", nil, app), http.StatusOK)
	// Another project cannot read the job.
	wantError(t, e.Do(http.MethodGet, "/v1/async-actions/"+id, nil, resttest.App(e.NewProject("other"))), http.StatusNotFound, "not_found", "")
}

// Customers in bulk: upserts by source_id with the fields sent; metadata
// merged into every listed customer (an unknown one created).
func TestCustomersBulkAndMetadataAsync(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann",
		"metadata": map[string]any{"keep": "yes", "lang": "pl"}}, app), http.StatusOK)
	r := must(t, e.DoJSON(http.MethodPost, "/v1/customers/bulk/async", []any{
		map[string]any{"source_id": "ann", "email": "ann@example.com"},
		map[string]any{"source_id": "bob", "name": "Bob", "address": map[string]any{"city": "Oslo"}},
		map[string]any{"source_id": "cid", "email": "nope"},
		map[string]any{"name": "no source id"},
	}, app), http.StatusAccepted)
	aa := e.WaitForJob(app, r["async_action_id"].(string))
	res := aa["result"].(map[string]any)
	if aa["type"] != "CUSTOMERS.BULK_UPDATE" || res["done_count"] != float64(2) || res["failed_count"] != float64(2) {
		t.Fatalf("bulk = %v", aa)
	}
	errs := fmt.Sprint(res["errors"])
	if !strings.Contains(errs, "source_id:cid") || !strings.Contains(errs, "e-mail") || !strings.Contains(errs, "source_id is required") {
		t.Errorf("errors = %s", errs)
	}
	ann := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)
	if ann["name"] != "Ann" || ann["email"] != "ann@example.com" {
		t.Errorf("ann = %v", ann)
	}
	must(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, app), http.StatusOK)

	r = must(t, e.DoJSON(http.MethodPost, "/v1/customers/metadata/async", map[string]any{"source_ids": []string{"ann", "new"},
		"metadata": map[string]any{"lang": "en", "vip": true}}, app), http.StatusAccepted)
	aa = e.WaitForJob(app, r["async_action_id"].(string))
	if res := aa["result"].(map[string]any); aa["type"] != "CUSTOMERS.METADATA_UPDATE" || res["done_count"] != float64(2) {
		t.Fatalf("metadata = %v", aa)
	}
	md := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)["metadata"].(map[string]any)
	if md["keep"] != "yes" || md["lang"] != "en" || md["vip"] != true {
		t.Errorf("ann metadata = %v", md)
	}
	if md := must(t, e.Do(http.MethodGet, "/v1/customers/new", nil, app), http.StatusOK)["metadata"].(map[string]any); md["vip"] != true {
		t.Errorf("new metadata = %v", md)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers/bulk/async", []any{}, app), http.StatusBadRequest, "invalid_payload", "non-empty")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers/metadata/async", map[string]any{"source_ids": []string{"a"}}, app),
		http.StatusBadRequest, "invalid_payload", "metadata")
}

// Two bulk updates of the same new source_ids run at once (two workers):
// each source_id ends as one customer.
func TestCustomersBulkUpsertsRaceSafely(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	var items []any
	for i := range 150 {
		items = append(items, map[string]any{"source_id": fmt.Sprintf("race-%d", i), "metadata": map[string]any{"n": i}})
	}
	for range 2 {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers/bulk/async", items, app), http.StatusAccepted)
	}
	resttest.RunOnceOnTwoWorkers(t, e)
	jobs := must(t, e.Do(http.MethodGet, "/v1/async-actions", nil, app), http.StatusOK)
	if n := strings.Count(fmt.Sprint(jobs), "status:DONE"); n != 2 {
		t.Errorf("%d jobs done, want 2: %v", n, jobs)
	}
	if list := must(t, e.Do(http.MethodGet, "/v1/customers?limit=1", nil, app), http.StatusOK); list["total"] != float64(150) {
		t.Errorf("%v customers, want 150", list["total"])
	}
}

// Standalone vouchers from CSV: new codes created, a known code updated,
// bad rows reported by row; metadata of many codes in one job.
func TestVouchersImportCSVAndMetadataAsync(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "KNOWN", "type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}, "metadata": map[string]any{"keep": "yes"}}, app), http.StatusOK)
	r := must(t, uploadCSV(t, e, app, "/v1/vouchers/importCSV",
		"Code,Voucher Type,Value,Discount Type,Category,Start Date,Expiration Date,Redemption Limit,Redeemed Quantity,Active,region\n"+
			"NEW-1,DISCOUNT_VOUCHER,15,PERCENT,Moved,2020-03-11T09:00:00.000Z,2030-01-01,5,2,true,north\n"+
			"GIFT-1,GIFT_VOUCHER,5000,,,,,,,,\n"+
			"KNOWN,,,,Moved,,,,,false,south\n"+
			"BAD-DATE,DISCOUNT_VOUCHER,10,AMOUNT,,11/03/2020,,,,,\n"+
			"BAD-PCT,DISCOUNT_VOUCHER,150,PERCENT,,,,,,,\n"+
			"BAD-LIMIT,DISCOUNT_VOUCHER,10,AMOUNT,,,,2,3,,\n"), http.StatusAccepted)
	aa := e.WaitForJob(app, r["async_action_id"].(string))
	res := aa["result"].(map[string]any)
	if aa["type"] != "VOUCHERS.IMPORT_CSV" || res["done_count"] != float64(3) || res["failed_count"] != float64(3) {
		t.Fatalf("import = %v", aa)
	}
	failed := map[float64]string{}
	for _, f := range res["failed"].([]any) {
		f := f.(map[string]any)
		failed[f["row"].(float64)] = fmt.Sprint(f["code"], " ", f["reason"])
	}
	if !strings.Contains(failed[4], "BAD-DATE") || !strings.Contains(failed[5], "BAD-PCT") || !strings.Contains(failed[6], "BAD-LIMIT") {
		t.Errorf("failed = %v", res["failed"])
	}
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/NEW-1", nil, app), http.StatusOK)
	if v["discount"].(map[string]any)["percent_off"] != float64(15) || v["category"] != "Moved" ||
		v["redemption"].(map[string]any)["redeemed_quantity"] != float64(2) || v["metadata"].(map[string]any)["region"] != "north" ||
		!strings.HasPrefix(fmt.Sprint(v["start_date"]), "2020-03-11T09:00:00") {
		t.Errorf("NEW-1 = %v", v)
	}
	if g := must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-1", nil, app), http.StatusOK)["gift"].(map[string]any); g["amount"] != float64(5000) {
		t.Errorf("GIFT-1 gift = %v", g)
	}
	known := must(t, e.Do(http.MethodGet, "/v1/vouchers/KNOWN", nil, app), http.StatusOK)
	if known["active"] != false || known["category"] != "Moved" || known["metadata"].(map[string]any)["keep"] != "yes" ||
		known["discount"].(map[string]any)["amount_off"] != float64(100) {
		t.Errorf("KNOWN = %v", known)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/vouchers/BAD-PCT", nil, app), http.StatusNotFound, "not_found", "")

	r = must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/metadata/async", map[string]any{"codes": []string{"KNOWN", "NEW-1", "GHOST"},
		"metadata": map[string]any{"lang": "en"}}, app), http.StatusAccepted)
	aa = e.WaitForJob(app, r["async_action_id"].(string))
	res = aa["result"].(map[string]any)
	if aa["type"] != "VOUCHERS.METADATA_UPDATE" || res["done_count"] != float64(2) || res["failed_count"] != float64(1) ||
		!strings.Contains(fmt.Sprint(res["errors"]), "GHOST") {
		t.Fatalf("metadata = %v", aa)
	}
	if md := must(t, e.Do(http.MethodGet, "/v1/vouchers/KNOWN", nil, app), http.StatusOK)["metadata"].(map[string]any); md["keep"] != "yes" || md["lang"] != "en" {
		t.Errorf("KNOWN metadata = %v", md)
	}
	wantError(t, uploadCSV(t, e, app, "/v1/vouchers/importCSV", "Category\nx\n"), http.StatusBadRequest, "invalid_payload", "Code")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/metadata/async", map[string]any{"codes": []string{}, "metadata": map[string]any{}}, app),
		http.StatusBadRequest, "invalid_payload", "codes")
}

// graphQLUpload sends query with the file as variable $f (the GraphQL
// multipart request spec) and returns the data.
func graphQLUpload(t *testing.T, e *resttest.Env, h resttest.Headers, query, file string) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	ops, _ := json.Marshal(map[string]any{"query": query, "variables": map[string]any{"f": nil}})
	mw.WriteField("operations", string(ops))
	mw.WriteField("map", `{"0":["variables.f"]}`)
	fw, _ := mw.CreateFormFile("0", "file.csv")
	fw.Write([]byte(file))
	mw.Close()
	res := e.Do(http.MethodPost, "/graphql", buf.Bytes(), resttest.Merge(h, resttest.Headers{"Content-Type": mw.FormDataContentType()}))
	data, ok := must(t, res, http.StatusOK)["data"].(map[string]any)
	if !ok {
		t.Fatalf("GraphQL upload: %s", res.Body)
	}
	return data
}

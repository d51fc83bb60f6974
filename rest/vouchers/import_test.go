package vouchers_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestVoucherImportRunsAsAnAsyncAction(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": "TAKEN",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 10}}, app), http.StatusOK)
	resp := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/import", []any{
		map[string]any{"code": "IMP-AMOUNT", "category": "imported", "type": "DISCOUNT_VOUCHER", "active": false,
			"discount": map[string]any{"type": "AMOUNT", "amount_off": 3000}, "start_date": "2020-12-01T23:00:00Z",
			"expiration_date": "2030-12-19T23:00:00Z", "redemption": map[string]any{"quantity": 1, "redeemed_quantity": 1},
			"metadata": map[string]any{"unit": "EUR"}, "additional_info": "secret"},
		map[string]any{"code": "IMP-GIFT", "type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 10000}},
		map[string]any{"code": "TAKEN", "discount": map[string]any{"type": "AMOUNT", "amount_off": 1}},
		map[string]any{"code": "IMP-BAD", "discount": map[string]any{"type": "PERCENT", "percent_off": 250}},
	}, app), http.StatusAccepted)
	id, _ := resp["async_action_id"].(string)
	job := e.WaitForJob(app, id)
	res, _ := job["result"].(map[string]any)
	failed, _ := res["failed"].([]any)
	if job["type"] != "VOUCHERS.IMPORT" || job["status"] != "DONE" || job["progress"] != float64(100) ||
		res["done_count"] != float64(2) || res["failed_count"] != float64(2) || len(failed) != 2 ||
		failed[0].(map[string]any)["code"] != "TAKEN" || failed[1].(map[string]any)["code"] != "IMP-BAD" ||
		res["message"] != "2 voucher(s) imported successfully, 2 failed." {
		t.Fatalf("import job = %v", job)
	}
	if reason, _ := failed[0].(map[string]any)["reason"].(string); reason == "" {
		t.Errorf("failure without a reason: %v", failed)
	}
	v := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/IMP-AMOUNT", nil, app), http.StatusOK)
	if v["campaign"] != nil || v["active"] != false || v["category"] != "imported" || v["additional_info"] != "secret" ||
		v["discount"].(map[string]any)["amount_off"] != float64(3000) || v["redemption"].(map[string]any)["quantity"] != float64(1) ||
		v["redemption"].(map[string]any)["redeemed_quantity"] != float64(0) || v["expiration_date"] != "2030-12-19T23:00:00.000Z" {
		t.Errorf("imported voucher = %v", v)
	}
	if g := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/IMP-GIFT", nil, app), http.StatusOK); g["gift"].(map[string]any)["balance"] != float64(10000) {
		t.Errorf("imported gift card = %v", g["gift"])
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/IMP-BAD", nil, app), http.StatusNotFound)
	list := resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions?limit=1", nil, app), http.StatusOK)
	if list["async_actions"].([]any)[0].(map[string]any)["id"] != id {
		t.Errorf("async-actions list = %v", list)
	}

	// What the request itself gets wrong is refused at once, nothing scheduled.
	for name, body := range map[string]any{
		"empty":     []any{},
		"no code":   []any{map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}},
		"twice":     []any{map[string]any{"code": "A"}, map[string]any{"code": "A"}},
		"an object": map[string]any{"code": "A"},
	} {
		r := e.DoJSON(http.MethodPost, "/v1/vouchers/import", body, app)
		if r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_payload" {
			t.Errorf("import %s: %d %s", name, r.Status, r.Body)
		}
	}
	// GraphQL refuses the same with the same key, and schedules the same job.
	bad := e.GraphQL(app, `mutation { importVouchers(input: [{type: DISCOUNT_VOUCHER}]) { id } }`, nil)
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Errorf("importVouchers without a code = %+v", bad.Errors)
	}
	gql := e.GraphQL(app, `mutation { importVouchers(input: [{code: "GQL-1", discount: {type: AMOUNT, amountOff: 5}}]) { id type } }`, nil)
	if len(gql.Errors) > 0 {
		t.Fatalf("importVouchers: %+v", gql.Errors)
	}
	job = e.WaitForJob(app, gql.Data["importVouchers"].(map[string]any)["id"].(string))
	if job["status"] != "DONE" || job["result"].(map[string]any)["done_count"] != float64(1) {
		t.Errorf("GraphQL import job = %v", job)
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/GQL-1", nil, app), http.StatusOK)
	// Another project's import does not see this project's codes.
	other := resttest.App(e.NewProject("other"))
	r := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/import", []any{map[string]any{"code": "TAKEN",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 1}}}, other), http.StatusAccepted)
	if j := e.WaitForJob(other, r["async_action_id"].(string)); j["result"].(map[string]any)["done_count"] != float64(1) {
		t.Errorf("other project's import of TAKEN = %v", j)
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions/"+id, nil, other), http.StatusNotFound)
}

func TestVoucherBulkMetadataUpdate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for _, code := range []string{"B-1", "B-2"} {
		resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": code, "metadata": map[string]any{"keep": code, "lang": "de"},
			"discount": map[string]any{"type": "AMOUNT", "amount_off": 10}}, app), http.StatusOK)
	}
	resp := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/bulk/async", []any{
		map[string]any{"code": "B-1", "metadata": map[string]any{"lang": "en", "n": 1}},
		map[string]any{"code": "B-2", "metadata": map[string]any{"lang": "pl"}},
		map[string]any{"code": "B-404", "metadata": map[string]any{"lang": "en"}},
	}, app), http.StatusAccepted)
	job := e.WaitForJob(app, resp["async_action_id"].(string))
	res := job["result"].(map[string]any)
	errs, _ := res["errors"].([]any)
	if job["type"] != "VOUCHERS.BULK_UPDATE" || job["status"] != "DONE" || res["done_count"] != float64(2) ||
		res["failed_count"] != float64(1) || len(errs) != 1 || errs[0].(map[string]any)["code"] != "B-404" ||
		errs[0].(map[string]any)["key"] != "not_found" {
		t.Fatalf("bulk update job = %v", job)
	}
	b1 := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/B-1", nil, app), http.StatusOK)
	if resttest.MustJSON(b1["metadata"]) != `{"keep":"B-1","lang":"en","n":1}` {
		t.Errorf("B-1 metadata = %v", b1["metadata"])
	}
	if b2 := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/B-2", nil, app), http.StatusOK); resttest.MustJSON(b2["metadata"]) != `{"keep":"B-2","lang":"pl"}` {
		t.Errorf("B-2 metadata = %v", b2["metadata"])
	}
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/bulk/async", []any{map[string]any{"code": "B-1"}}, app),
		http.StatusBadRequest, "invalid_payload", "metadata")
	gql := e.GraphQL(app, `mutation { updateVouchersInBulk(input: [{code: "B-2", metadata: {lang: "fr"}}]) { id type } }`, nil)
	if len(gql.Errors) > 0 {
		t.Fatalf("updateVouchersInBulk: %+v", gql.Errors)
	}
	e.WaitForJob(app, gql.Data["updateVouchersInBulk"].(map[string]any)["id"].(string))
	if b2 := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/B-2", nil, app), http.StatusOK); b2["metadata"].(map[string]any)["lang"] != "fr" {
		t.Errorf("B-2 after the GraphQL bulk update = %v", b2["metadata"])
	}
}

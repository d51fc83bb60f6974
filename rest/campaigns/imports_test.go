package campaigns_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// Existing codes move into a campaign: the JSON import and the CSV one,
// each an async action that imports the good rows and reports the others.
func TestImportCodesIntoCampaign(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateCampaign(t, e, map[string]any{"name": "Moved", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10}}})
	resttest.Must(t, addVoucher(t, e, "Moved", map[string]any{"code": "TAKEN"}), http.StatusOK)

	r := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Moved/import", []any{
		map[string]any{"code": "OLD-1", "category": "Legacy", "metadata": map[string]any{"source": "old"},
			"redemption": map[string]any{"quantity": 3}, "active": false},
		map[string]any{"code": "TAKEN"},
		map[string]any{"code": "OLD-2", "gift": map[string]any{"amount": 500}},
	}, app), http.StatusAccepted)
	job := e.WaitForJob(app, r["async_action_id"].(string))
	res := job["result"].(map[string]any)
	if job["status"] != "DONE" || job["type"] != "CAMPAIGN.VOUCHERS_IMPORT" || res["done_count"] != float64(1) ||
		res["failed_count"] != float64(2) || !strings.Contains(fmt.Sprint(res["failed"]), "TAKEN") {
		t.Fatalf("import = %v", job)
	}
	old := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/OLD-1", nil, app), http.StatusOK)
	if old["campaign"] != "Moved" || old["category"] != "Legacy" || old["active"] != false ||
		old["discount"].(map[string]any)["percent_off"] != float64(10) || old["metadata"].(map[string]any)["source"] != "old" ||
		old["redemption"].(map[string]any)["quantity"] != float64(3) {
		t.Errorf("imported voucher = %v", old)
	}
	resttest.WantError(t, e.Do(http.MethodGet, "/v1/vouchers/OLD-2", nil, app), http.StatusNotFound, "not_found", "OLD-2")

	// CSV: a BOM, the reference's column names, metadata columns, bad rows.
	r = resttest.Must(t, resttest.UploadCSV(t, e, app, "/v1/campaigns/Moved/importCSV",
		"\ufeffCode,Category,Active,Redeemed Quantity,Redemption Limit,region\n"+
			"CSV-1,Legacy,true,1,5,north\n"+
			"CSV-2,,false,,,south\n"+
			"OLD-1,,,,,\n"+
			"CSV-3,,sometimes,,,\n"+
			"CSV-4,,,7,5,\n"+
			",,,,,\n"), http.StatusOK)
	job = e.WaitForJob(app, r["async_action_id"].(string))
	res = job["result"].(map[string]any)
	if job["status"] != "DONE" || job["type"] != "CAMPAIGN.VOUCHERS_IMPORT_CSV" || res["done_count"] != float64(2) ||
		res["failed_count"] != float64(4) {
		t.Fatalf("CSV import = %v", job)
	}
	lines := map[float64]bool{}
	for _, f := range res["failed"].([]any) {
		lines[f.(map[string]any)["line"].(float64)] = true
	}
	if !lines[4] || !lines[5] || !lines[6] || !lines[7] {
		t.Errorf("failed lines = %v", res["failed"])
	}
	csv1 := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/CSV-1", nil, app), http.StatusOK)
	if csv1["metadata"].(map[string]any)["region"] != "north" || csv1["redemption"].(map[string]any)["redeemed_quantity"] != float64(1) ||
		csv1["redemption"].(map[string]any)["quantity"] != float64(5) || csv1["category"] != "Legacy" {
		t.Errorf("CSV-1 = %v", csv1)
	}
	if cmp := resttest.Must(t, e.Do(http.MethodGet, "/v1/campaigns/Moved", nil, app), http.StatusOK); cmp["vouchers_count"] != float64(4) {
		t.Errorf("vouchers_count = %v, want 4", cmp["vouchers_count"])
	}

	// Gift cards bring their amount and what was spent.
	resttest.CreateCampaign(t, e, map[string]any{"name": "Cards", "type": "STATIC", "voucher": map[string]any{"type": "GIFT_VOUCHER",
		"gift": map[string]any{"amount": 1000}}})
	r = resttest.Must(t, resttest.UploadCSV(t, e, app, "/v1/campaigns/Cards/importCSV", "Code,Gift Amount,Redeemed Amount\nG-1,2500,500\nG-2,100,200\n"),
		http.StatusOK)
	job = e.WaitForJob(app, r["async_action_id"].(string))
	if res := job["result"].(map[string]any); res["done_count"] != float64(1) || res["failed_count"] != float64(1) {
		t.Fatalf("gift import = %v", job)
	}
	g := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/G-1", nil, app), http.StatusOK)["gift"].(map[string]any)
	if g["amount"] != float64(2500) || g["balance"] != float64(2000) {
		t.Errorf("G-1 gift = %v", g)
	}

	// Refused before anything is scheduled.
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Moved/importCSV", map[string]any{}, app), http.StatusBadRequest,
		"invalid_payload", "multipart")
	resttest.WantError(t, resttest.UploadCSV(t, e, app, "/v1/campaigns/Moved/importCSV", "Category\nx\n"), http.StatusBadRequest, "invalid_payload", "Code")
	resttest.WantError(t, resttest.UploadCSV(t, e, app, "/v1/campaigns/Moved/importCSV", "Code\n"), http.StatusBadRequest, "invalid_payload", "no rows")
	resttest.WantError(t, resttest.UploadCSV(t, e, app, "/v1/campaigns/Nope/importCSV", "Code\nX\n"), http.StatusNotFound, "not_found", "Nope")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Moved/import", []any{map[string]any{"category": "x"}}, app),
		http.StatusBadRequest, "invalid_payload", "code")
	resttest.Must(t, resttest.UploadCSV(t, e, app, "/v1/campaigns/Moved/importCSV", "Code\nX\n"), http.StatusOK) // accepted
	jobs := resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions", nil, app), http.StatusOK)
	if n := strings.Count(fmt.Sprint(jobs), "CAMPAIGN.VOUCHERS_IMPORT"); n != 4 {
		t.Errorf("%d import jobs scheduled, want 4 (refused requests schedule nothing)", n)
	}
	// Another project cannot import into this campaign.
	resttest.WantError(t, resttest.UploadCSV(t, e, resttest.App(e.NewProject("other")), "/v1/campaigns/Moved/importCSV", "Code\nX\n"),
		http.StatusNotFound, "not_found", "Moved")
}

// GraphQL takes the same CSV import as a file upload (the GraphQL
// multipart request spec).
func TestImportCodesIntoCampaignThroughGraphQLUpload(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateCampaign(t, e, map[string]any{"name": "Uploaded", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}})
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("operations", `{"query":"mutation($f: Upload!) { importCampaignVouchersCSV(idOrName: \"Uploaded\", file: $f) { id type } }","variables":{"f":null}}`)
	mw.WriteField("map", `{"0":["variables.f"]}`)
	fw, _ := mw.CreateFormFile("0", "codes.csv")
	fw.Write([]byte("Code,tier\nUP-1,gold\nUP-2,silver\n"))
	mw.Close()
	res := e.Do(http.MethodPost, "/graphql", buf.Bytes(), resttest.Merge(app, resttest.Headers{"Content-Type": mw.FormDataContentType()}))
	body := resttest.Must(t, res, http.StatusOK)
	action, ok := body["data"].(map[string]any)["importCampaignVouchersCSV"].(map[string]any)
	if !ok || action["type"] != "CAMPAIGN.VOUCHERS_IMPORT_CSV" {
		t.Fatalf("upload = %s", res.Body)
	}
	job := e.WaitForJob(app, action["id"].(string))
	if job["result"].(map[string]any)["done_count"] != float64(2) {
		t.Fatalf("job = %v", job)
	}
	if v := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/UP-2", nil, app), http.StatusOK); v["metadata"].(map[string]any)["tier"] != "silver" {
		t.Errorf("UP-2 = %v", v)
	}
}

package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// POST /v1/exports of redemptions and publications as a user drives it:
// the documented default columns, chosen columns with metadata, a filter,
// and the 400s naming what is allowed (nothing scheduled).
func TestRedemptionAndPublicationExports(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	ann := must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "name": "Ann, A."}, app), http.StatusOK)
	discountCode(t, e, app, "Spring", "SPRING-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Spring/vouchers", map[string]any{"code": "SPRING-2"}, app), http.StatusOK)
	red := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/SPRING-1/redemption", map[string]any{
		"customer": map[string]any{"source_id": "ann"}, "order": map[string]any{"amount": 1000},
		"metadata": map[string]any{"shop": "north"}}, app), http.StatusOK)
	pub := must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "SPRING-2",
		"customer": map[string]any{"source_id": "ann"}, "metadata": map[string]any{"shop": "south"}}, app), http.StatusOK)

	csvOf := func(body map[string]any) string {
		t.Helper()
		exp := must(t, e.DoJSON(http.MethodPost, "/v1/exports", body, app), http.StatusOK)
		if exp["status"] != "SCHEDULED" || exp["exported_object"] != body["exported_object"] {
			t.Fatalf("export = %v", exp)
		}
		done := waitForExport(t, e, app, exp["id"].(string))
		status, csv := download(t, e, done["result"].(map[string]any)["url"].(string))
		if status != http.StatusOK {
			t.Fatalf("download: %d %s", status, csv)
		}
		return csv
	}

	// Default columns: id, object, voucher_code, customer_id, date, result.
	lines := strings.Split(csvOf(map[string]any{"exported_object": "redemption"}), "\n")
	if len(lines) != 3 || lines[0] != "id,object,voucher_code,customer_id,date,result" ||
		!strings.HasPrefix(lines[1], red["id"].(string)+",redemption,SPRING-1,"+ann["id"].(string)+",") ||
		!strings.HasSuffix(lines[1], ",SUCCESS") || lines[2] != "" {
		t.Errorf("default redemptions CSV:\n%s", strings.Join(lines, "\n"))
	}
	want := "voucher_code,campaign,customer_source_id,customer_name,order_amount,result,failure_code,metadata.shop\n" +
		"SPRING-1,Spring,ann,\"Ann, A.\",1000,SUCCESS,,north\n"
	if got := csvOf(map[string]any{"exported_object": "redemption", "parameters": map[string]any{"order": "-created_at",
		"fields":  []string{"voucher_code", "campaign", "customer_source_id", "customer_name", "order_amount", "result", "failure_code", "metadata.shop"},
		"filters": map[string]any{"result": map[string]any{"conditions": map[string]any{"$in": []string{"SUCCESS"}}}}}}); got != want {
		t.Errorf("redemptions CSV:\n%s\nwant:\n%s", got, want)
	}
	if got := csvOf(map[string]any{"exported_object": "redemption", "parameters": map[string]any{"fields": []string{"id"},
		"filters": map[string]any{"voucher_code": map[string]any{"conditions": map[string]any{"$is": "SPRING-2"}}}}}); got != "id\n" {
		t.Errorf("filtered redemptions CSV:\n%s", got)
	}

	// Publications: default columns code, customer_id, date, channel.
	lines = strings.Split(csvOf(map[string]any{"exported_object": "publication"}), "\n")
	if len(lines) != 3 || lines[0] != "code,customer_id,date,channel" ||
		!strings.HasPrefix(lines[1], "SPRING-2,"+ann["id"].(string)+",") || !strings.HasSuffix(lines[1], ",API") || pub["id"] == nil {
		t.Errorf("default publications CSV:\n%s", strings.Join(lines, "\n"))
	}
	want = "voucher_code,customer_source_id,campaign,is_winner,metadata.shop\nSPRING-2,ann,Spring,,south\n"
	if got := csvOf(map[string]any{"exported_object": "publication", "parameters": map[string]any{
		"fields":  []string{"voucher_code", "customer_source_id", "campaign", "is_winner", "metadata.shop"},
		"filters": map[string]any{"customer_id": map[string]any{"conditions": map[string]any{"$is": ann["id"]}}}}}); got != want {
		t.Errorf("publications CSV:\n%s\nwant:\n%s", got, want)
	}

	// Refused, naming what is allowed; nothing is scheduled.
	before := must(t, e.Do(http.MethodGet, "/v1/exports?limit=100", nil, app), http.StatusOK)["total"]
	for _, bad := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"exported_object": "redemption", "parameters": map[string]any{"fields": []string{"shoe"}}}, "failure_message"},
		{map[string]any{"exported_object": "redemption", "parameters": map[string]any{"order": "amount"}}, "-tracking_id"},
		{map[string]any{"exported_object": "redemption", "parameters": map[string]any{"filters": map[string]any{"user_login": map[string]any{}}}}, "parent_redemption_id"},
		{map[string]any{"exported_object": "publication", "parameters": map[string]any{"fields": []string{"id"}}}, "is_winner"},
		{map[string]any{"exported_object": "publication", "parameters": map[string]any{"filters": map[string]any{"junction": "xor"}}}, "junction"},
		{map[string]any{"exported_object": "publication", "parameters": map[string]any{"filters": map[string]any{
			"created_at": map[string]any{"conditions": map[string]any{"$after": "yesterday"}}}}}, "date-time"},
	} {
		r := e.DoJSON(http.MethodPost, "/v1/exports", bad.body, app)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), bad.want) {
			t.Errorf("POST /v1/exports %v: %d %s", bad.body, r.Status, r.Body)
		}
	}
	if after := must(t, e.Do(http.MethodGet, "/v1/exports?limit=100", nil, app), http.StatusOK)["total"]; after != before {
		t.Errorf("refused exports were stored: %v then %v", before, after)
	}
}

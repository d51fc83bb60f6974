package vouchers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestReservedVoucherPathsNeverCreateVouchers: POST /v1/vouchers/{code}
// does not take an operation of the real service's voucher API for a
// code, and no transport creates a voucher that such a path would hide.
func TestReservedVoucherPathsNeverCreateVouchers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	voucher := map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}
	for _, word := range []string{"bulk", "metadata"} {
		r := e.DoJSON(http.MethodPost, "/v1/vouchers/"+word, voucher, app)
		resttest.WantError(t, r, http.StatusNotFound, "not_found", "No endpoint POST /v1/vouchers/"+word)
		// As any unknown path: the same answer without credentials.
		resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+word, voucher, nil), http.StatusNotFound, "not_found", "No endpoint")
	}
	// The operations we serve keep their routes.
	if r := e.DoJSON(http.MethodPost, "/v1/vouchers/import", []any{}, app); r.Status != http.StatusBadRequest || strings.Contains(string(r.Body), "No endpoint") {
		t.Errorf("POST /v1/vouchers/import: %d %s", r.Status, r.Body)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/vouchers/importCSV", voucher, app); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "multipart") {
		t.Errorf("POST /v1/vouchers/importCSV: %d %s", r.Status, r.Body)
	}
	// The legacy voucher qualification is an operation: it lists, it never creates.
	if r := e.DoJSON(http.MethodPost, "/v1/vouchers/qualification", voucher, app); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"id":"qfl_`) {
		t.Errorf("POST /v1/vouchers/qualification: %d %s", r.Status, r.Body)
	}
	// A code that only looks like a reserved word is an ordinary code.
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/IMPORTCSV", voucher, app), http.StatusOK)

	// The exact words are refused as codes on every transport.
	for _, word := range []string{"bulk", "import", "importCSV", "metadata", "qualification"} {
		body := map[string]any{"code": word}
		for k, v := range voucher {
			body[k] = v
		}
		resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers", body, app), http.StatusBadRequest, "invalid_payload", "reserved")
		gql := e.GraphQL(app, `mutation($c: String!) { createVoucher(input: {code: $c, discount: {type: AMOUNT, amountOff: 100}}) { code } }`,
			map[string]any{"c": word})
		if len(gql.Errors) != 1 || gql.Errors[0].Extensions["key"] != "invalid_payload" || !strings.Contains(gql.Errors[0].Message+resttest.MustJSON(gql.Errors[0].Extensions), "reserved") {
			t.Errorf("GraphQL createVoucher %q: %+v", word, gql)
		}
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Camp", "type": "STATIC", "voucher": voucher}, app), http.StatusOK)
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Camp/vouchers", map[string]any{"code": "qualification"}, app),
		http.StatusBadRequest, "invalid_payload", "reserved")
	resttest.WantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Camp/vouchers/importCSV", map[string]any{}, app),
		http.StatusBadRequest, "invalid_payload", "reserved")

	list := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers?limit=100", nil, app), http.StatusOK)
	if list["total"] != float64(1) || !strings.Contains(resttest.MustJSON(list["vouchers"]), `"code":"IMPORTCSV"`) {
		t.Errorf("vouchers stored = %v", list)
	}
}

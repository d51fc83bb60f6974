package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/migrate"
	"github.com/promoengine/promoengine/rest/resttest"
)

// The reproductions of issue 34 item 1: a number beyond what a field can
// hold (1e400, -1e400, 2^63, 2^64) is a 400 invalid_payload naming the
// field, wherever it is — metadata included — and nothing is stored, so
// every list stays readable.

// TestClientRedemptionRefusesNumberOutOfRange: POST /client/v1/redemptions
// with a public client key and "metadata":{"k":1e400} was stored and made
// GET /v1/redemptions answer 500 forever.
func TestClientRedemptionRefusesNumberOutOfRange(t *testing.T) {
	e := resttest.New(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	discountCode(t, e, app, "Web", "WEB-1", map[string]any{"type": "AMOUNT", "amount_off": 500}, nil)
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin},
		"client_redeem_enabled": true, "client_publish_enabled": true, "client_create_customer_enabled": true})
	cl := resttest.Client(e.Project, shopOrigin)

	for _, tc := range []struct{ method, path, body, field string }{
		{"POST", "/client/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"WEB-1"}],"order":{"amount":2000},"metadata":{"k":1e400}}`, ".metadata.k"},
		{"POST", "/client/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"WEB-1"}],"order":{"amount":2000,"metadata":{"n":{"k":-1e400}}}}`, ".order.metadata.n.k"},
		{"POST", "/client/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"WEB-1"}],"order":{"amount":2000,"items":[{"quantity":1,"price":2000,"metadata":{"k":18446744073709551616}}]}}`, ".order.items[0].metadata.k"},
		{"POST", "/client/v1/redeem?code=WEB-1", `{"customer":{"source_id":"c1","metadata":{"k":[1,9223372036854775808]}},"order":{"amount":2000}}`, ".customer.metadata.k[1]"},
		{"POST", "/client/v1/validations", `{"redeemables":[{"object":"voucher","id":"WEB-1"}],"order":{"amount":2000},"metadata":{"k":1e400}}`, ".metadata.k"},
		{"POST", "/client/v1/publish?campaign=Web", `{"customer":{"source_id":"c1"},"metadata":{"k":1E+999}}`, ".metadata.k"},
		{"POST", "/client/v1/customers", `{"source_id":"c1","metadata":{"k":1e400}}`, ".metadata.k"},
		{"POST", "/client/v1/events", `{"event":"e","customer":{"source_id":"c1"},"metadata":{"k":1e400}}`, ".metadata.k"},
	} {
		wantError(t, e.Do(tc.method, tc.path, []byte(tc.body), cl), http.StatusBadRequest, "invalid_payload", "Property "+tc.field+" must be")
	}
	// A query string's number is held to the same rule.
	wantError(t, e.Do("GET", "/client/v1/validate?code=WEB-1&amount=1e400", nil, cl), http.StatusBadRequest, "invalid_query_params", "amount")
	wantError(t, e.Do("GET", "/client/v1/validate?code=WEB-1&amount=9223372036854775808", nil, cl), http.StatusBadRequest, "invalid_query_params", "amount")
	if r := e.Do("GET", "/client/v1/validate?code=WEB-1&amount=NaN", nil, cl); r.Status != http.StatusBadRequest {
		t.Errorf("amount=NaN: %d %s", r.Status, r.Body)
	}

	// The largest values that fit are stored and read back.
	must(t, e.Do("POST", "/client/v1/redemptions", []byte(`{"redeemables":[{"object":"voucher","id":"WEB-1"}],"order":{"amount":2000},`+
		`"metadata":{"max":1.7976931348623157e308,"i":9223372036854775807,"tiny":1e-400}}`), cl), http.StatusOK)
	for _, path := range []string{"/v1/redemptions", "/v1/publications", "/v1/campaigns", "/v1/customers", "/v1/vouchers/WEB-1"} {
		must(t, e.Do("GET", path, nil, app), http.StatusOK)
	}
	list := e.Do("GET", "/v1/redemptions", nil, app)
	if !strings.Contains(string(list.Body), `"max":1.7976931348623157e+308`) {
		t.Errorf("the largest float is not read back: %.400s", list.Body)
	}
}

// TestCustomerCreateRefusesNumberOutOfRange: POST /v1/customers with 1e400
// in metadata answered 500.
func TestCustomerCreateRefusesNumberOutOfRange(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for _, lit := range []string{"1e400", "-1e400", "9223372036854775808", "18446744073709551616"} {
		wantError(t, e.Do("POST", "/v1/customers", []byte(`{"source_id":"c1","metadata":{"a":{"k":`+lit+`}}}`), app),
			http.StatusBadRequest, "invalid_payload", "Property .metadata.a.k must be")
	}
	if r := must(t, e.Do("GET", "/v1/customers", nil, app), http.StatusOK); r["total"] != float64(0) {
		t.Errorf("a refused customer was stored: %v", r)
	}
}

// TestGraphQLRefusesNumberOutOfRange: a Map variable or a literal in the
// query text with 1e400 is an error with code 400, key invalid_payload,
// and nothing is stored.
func TestGraphQLRefusesNumberOutOfRange(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	const upsert = `mutation($in: CustomerInput!) { upsertCustomer(input: $in) { id } }`
	for name, call := range map[string]func() resttest.GraphQLResponse{
		"Map variable": func() resttest.GraphQLResponse {
			return e.GraphQL(app, upsert, map[string]any{"in": map[string]any{"sourceID": "c1", "metadata": map[string]any{"k": json.Number("1e400")}}})
		},
		"Map variable 2^63": func() resttest.GraphQLResponse {
			return e.GraphQL(app, upsert, map[string]any{"in": map[string]any{"sourceID": "c1", "metadata": map[string]any{"k": json.Number("9223372036854775808")}}})
		},
		"Map literal": func() resttest.GraphQLResponse {
			return e.GraphQL(app, `mutation { upsertCustomer(input: {sourceID: "c1", metadata: {k: 1e400}}) { id } }`, nil)
		},
		"Map literal in a list": func() resttest.GraphQLResponse {
			return e.GraphQL(app, `mutation { upsertCustomer(input: {sourceID: "c1", metadata: {k: [1, -1e400]}}) { id } }`, nil)
		},
		"Float literal": func() resttest.GraphQLResponse {
			return e.GraphQL(app, `mutation { createVoucher(input: {type: DISCOUNT_VOUCHER, discount: {type: AMOUNT, amountOff: 1e400}}) { id } }`, nil)
		},
		"Int literal": func() resttest.GraphQLResponse {
			return e.GraphQL(app, `{ customerList(input: {limit: 18446744073709551616}) { total } }`, nil)
		},
	} {
		r := call()
		if len(r.Errors) == 0 {
			t.Errorf("%s: no error (%d)", name, r.Status)
			continue
		}
		// Variables are checked by graph.NumberRange (invalid_payload);
		// literals already by gqlparser's validation, which parses every
		// literal as a 64-bit number (invalid_graphql_request).
		wantKey := "invalid_payload"
		if strings.Contains(name, "literal") {
			wantKey = "invalid_graphql_request"
		}
		ext := r.Errors[0].Extensions
		if ext["code"] != float64(http.StatusBadRequest) || ext["key"] != wantKey || r.Status == http.StatusOK {
			t.Errorf("%s: %d %v %s", name, r.Status, ext, r.Errors[0].Message)
		}
	}
	if r := must(t, e.Do("GET", "/v1/customers", nil, app), http.StatusOK); r["total"] != float64(0) {
		t.Errorf("a refused customer was stored: %v", r)
	}
	// A GET query's variables are held to the same rule.
	q := "/graphql?query=" + url.QueryEscape(`query($l: Int) { customerList(input: {limit: $l}) { total } }`) + "&variables=" + url.QueryEscape(`{"l":1e400}`)
	r := e.Do("GET", q, nil, app)
	if r.Status == http.StatusOK || !strings.Contains(string(r.Body), `"invalid_payload"`) {
		t.Errorf("GET variables: %d %s", r.Status, r.Body)
	}
}

// TestListsReadStoredNumbersOutOfRangeAfterTheRepair: rows that hold 1e400
// in a JSON column — stored before the rule, or by an older replica during
// a rolling upgrade — make the lists answer 500 until the repair
// (migration 20261126100000, `promoengine migrate repair-numbers`) has
// rewritten them; then every list reads them, as ±1.7976931348623157e308.
func TestListsReadStoredNumbersOutOfRangeAfterTheRepair(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Web", "WEB-1", map[string]any{"type": "AMOUNT", "amount_off": 500}, nil)
	must(t, e.DoJSON("POST", "/v1/vouchers/WEB-1/redemption", map[string]any{"customer": map[string]any{"source_id": "c1"},
		"order": map[string]any{"amount": 2000}}, app), http.StatusOK)
	must(t, e.DoJSON("POST", "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Web"},
		"customer": map[string]any{"source_id": "c1"}}, app), http.StatusOK)
	lists := []string{"/v1/redemptions", "/v1/publications", "/v1/campaigns", "/v1/customers", "/v1/vouchers"}

	// Seeded the old way: straight into every metadata column.
	ctx := context.Background()
	for _, tbl := range migrate.Tables {
		for _, c := range tbl.Columns {
			if c.Name == "metadata" && c.Type == field.TypeJSON {
				if _, err := e.DB.SQL.ExecContext(ctx, `UPDATE "`+tbl.Name+`" SET metadata = '{"k":1e400,"n":[-1e400]}'`); err != nil {
					t.Fatalf("seeding %s: %v", tbl.Name, err)
				}
			}
		}
	}
	if r := e.Do("GET", "/v1/redemptions", nil, app); r.Status != http.StatusInternalServerError {
		t.Fatalf("the seeded rows read back before the repair (%d): the test seeds nothing harmful", r.Status)
	}
	if n, err := e.DB.RepairJSONNumbers(ctx); err != nil || n == 0 {
		t.Fatalf("RepairJSONNumbers = %d, %v", n, err)
	}
	for _, path := range lists {
		r := must(t, e.Do("GET", path, nil, app), http.StatusOK)
		if !strings.Contains(mustJSON(r), `"k":1.7976931348623157e+308`) {
			t.Errorf("GET %s after the repair: %.300s", path, mustJSON(r))
		}
	}
}

package vouchers_test

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// listFixture is two campaigns of one project: Spring (category
// "seasonal", codes S1-S3) and Autumn (A1, A2), created in that order a few
// milliseconds apart, so created_at tells them apart.
type listFixture struct {
	spring, autumn string                    // campaign IDs
	vouchers       map[string]map[string]any // by code, as created
}

func newListFixture(t *testing.T, e *resttest.Env, h resttest.Headers) listFixture {
	t.Helper()
	f := listFixture{vouchers: map[string]map[string]any{}}
	for _, cmp := range []struct {
		name  string
		id    *string
		extra map[string]any
		codes []string
	}{
		{"Spring", &f.spring, map[string]any{"category": "seasonal"}, []string{"S1", "S2", "S3"}},
		{"Autumn", &f.autumn, nil, []string{"A1", "A2"}},
	} {
		body := map[string]any{"name": cmp.name, "type": "STATIC",
			"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}
		for k, v := range cmp.extra {
			body[k] = v
		}
		*cmp.id = resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", body, h), http.StatusOK)["id"].(string)
		for _, code := range cmp.codes {
			time.Sleep(3 * time.Millisecond)
			f.vouchers[code] = resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+cmp.name+"/vouchers",
				map[string]any{"code": code}, h), http.StatusOK)
		}
	}
	return f
}

// listVouchers calls GET /v1/vouchers?query and returns the body and the
// codes in order.
func listVouchers(t *testing.T, e *resttest.Env, h resttest.Headers, query string) (map[string]any, []string) {
	t.Helper()
	body := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers?"+query, nil, h), http.StatusOK)
	items, ok := body["vouchers"].([]any)
	if !ok {
		t.Fatalf("?%s: no vouchers array: %v", query, body)
	}
	codes := []string{}
	for _, it := range items {
		codes = append(codes, it.(map[string]any)["code"].(string))
	}
	return body, codes
}

// wantCodes lists with query and checks the codes (in order) and total.
func wantCodes(t *testing.T, e *resttest.Env, h resttest.Headers, query string, total int, want ...string) {
	t.Helper()
	body, codes := listVouchers(t, e, h, query)
	if want == nil {
		want = []string{}
	}
	if !reflect.DeepEqual(codes, want) || body["total"] != float64(total) {
		t.Errorf("?%s: codes %v total %v, want %v total %d", query, codes, body["total"], want, total)
	}
}

func TestVoucherListEnvelopeAndPaging(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	newListFixture(t, e, app)

	body, codes := listVouchers(t, e, app, "")
	if len(body) != 4 || body["object"] != "list" || body["data_ref"] != "vouchers" || body["total"] != float64(5) {
		t.Errorf("envelope = %v", body)
	}
	if want := []string{"A2", "A1", "S3", "S2", "S1"}; !reflect.DeepEqual(codes, want) {
		t.Errorf("default order: %v, want newest first %v", codes, want)
	}
	// Each entry is the voucher object GET /v1/vouchers/{code} returns
	// (without the rule assignments, which only the single voucher loads).
	one := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/A2", nil, app), http.StatusOK)
	listed := body["vouchers"].([]any)[0].(map[string]any)
	delete(one, "validation_rules_assignments")
	delete(listed, "validation_rules_assignments")
	if !reflect.DeepEqual(one, listed) || listed["campaign"] != "Autumn" || listed["object"] != "voucher" {
		t.Errorf("listed voucher %v\nwant %v", listed, one)
	}

	wantCodes(t, e, app, "limit=2", 5, "A2", "A1")
	wantCodes(t, e, app, "limit=2&page=2", 5, "S3", "S2")
	wantCodes(t, e, app, "limit=2&page=3", 5, "S1")
	wantCodes(t, e, app, "limit=2&page=4", 5)
	wantCodes(t, e, app, "limit=100&page=99", 5)
	wantCodes(t, e, app, "limit=1&page=1", 5, "A2")
}

func TestVoucherListFilters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	f := newListFixture(t, e, app)
	pub := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/publications",
		map[string]any{"voucher": "S1", "customer": map[string]any{"source_id": "alice"}}, app), http.StatusOK)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "carol"}, app), http.StatusOK)
	esc := url.QueryEscape
	updated := esc(resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/S1", nil, app), http.StatusOK)["updated_at"].(string))

	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"campaign=Spring", []string{"S3", "S2", "S1"}},
		{"campaign=" + f.autumn, []string{"A2", "A1"}},
		{"campaign_id=" + f.spring, []string{"S3", "S2", "S1"}},
		{"campaign_id=Spring", nil}, // campaign_id is an ID, not a name
		{"campaign=Nope", nil},
		{"campaign=Spring&campaign_id=" + f.autumn, nil},
		{"category=seasonal", []string{"S3", "S2", "S1"}},
		{"category=other", nil},
		{"code=S2", []string{"S2"}},
		{"code=s2", nil}, // codes are case-sensitive
		{"ids=" + f.vouchers["S1"]["id"].(string) + "&ids=" + f.vouchers["A1"]["id"].(string), []string{"A1", "S1"}},
		{"ids[]=" + f.vouchers["S2"]["id"].(string), []string{"S2"}},
		{"ids=v_nope", nil},
		{"customer=alice", []string{"S1"}},
		{"customer=" + pub["customer_id"].(string), []string{"S1"}},
		{"customer=carol", nil}, // a customer holding nothing
		{"customer=nobody", nil},
		{"created_at[after]=" + esc(f.vouchers["S1"]["created_at"].(string)) +
			"&created_at[before]=" + esc(f.vouchers["A1"]["created_at"].(string)), []string{"S3", "S2"}},
		{"created_at[before]=2000-01-01", nil},
		{"created_at[after]=2000-01-01", []string{"A2", "A1", "S3", "S2", "S1"}},
		// Only the published voucher has been updated.
		{"updated_at[before]=2999-01-01T00:00:00Z", []string{"S1"}},
		{"updated_at[after]=" + updated, nil}, // bounds are exclusive
		{"updated_at[before]=" + updated, nil},
		{"updated_at[after]=" + esc(f.vouchers["S1"]["created_at"].(string)), []string{"S1"}},
		{"updated_at[after]=2000-01-01&campaign=Spring", []string{"S1"}},
		{"order=code", []string{"A1", "A2", "S1", "S2", "S3"}},
		{"order=-code", []string{"S3", "S2", "S1", "A2", "A1"}},
		{"order=created_at", []string{"S1", "S2", "S3", "A1", "A2"}},
		{"order=-created_at", []string{"A2", "A1", "S3", "S2", "S1"}},
	} {
		wantCodes(t, e, app, tc.query, len(tc.want), tc.want...)
	}
	// Filters, order and paging together: the total counts every match.
	wantCodes(t, e, app, "campaign=Spring&order=code&limit=2&page=2", 3, "S3")
	// Updated vouchers come first in either updated_at order; the never
	// updated ones follow.
	for _, order := range []string{"updated_at", "-updated_at"} {
		if _, codes := listVouchers(t, e, app, "order="+order); len(codes) != 5 || codes[0] != "S1" {
			t.Errorf("order=%s: %v", order, codes)
		}
	}
}

func TestVoucherListBadParameters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for query, mention := range map[string]string{
		"limit=0": "limit", "limit=101": "limit", "limit=ten": "limit",
		"page=0": "page", "page=100": "page", "page=x": "page",
		"order=name": "order", "order=--code": "order",
		"created_at[before]=yesterday": "created_at[before]", "updated_at[after]=2024-13-01": "updated_at[after]",
	} {
		resttest.WantError(t, e.Do(http.MethodGet, "/v1/vouchers?"+query, nil, app), http.StatusBadRequest, "invalid_query_params", mention)
	}
	// No credentials: 401; a token needs scope api or vouchers.
	if r := e.Do(http.MethodGet, "/v1/vouchers", nil, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("without credentials: %d %s", r.Status, r.Body)
	}
	resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers", nil, resttest.Bearer(e.Token(app, "vouchers"))), http.StatusOK)
	if r := e.Do(http.MethodGet, "/v1/vouchers", nil, resttest.Bearer(e.Token(app, "campaigns"))); r.Status != http.StatusForbidden {
		t.Errorf("token with scope campaigns: %d %s", r.Status, r.Body)
	}
}

func TestVoucherListTenancy(t *testing.T) {
	e := resttest.New(t)
	a := resttest.App(e.Project)
	fa := newListFixture(t, e, a)
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/publications",
		map[string]any{"voucher": "S1", "customer": map[string]any{"source_id": "alice"}}, a), http.StatusOK)

	b := resttest.App(e.NewProject("project B"))
	wantCodes(t, e, b, "", 0)
	wantCodes(t, e, b, "customer=alice", 0)
	wantCodes(t, e, b, "campaign="+fa.spring, 0)
	wantCodes(t, e, b, "campaign_id="+fa.spring, 0)
	wantCodes(t, e, b, "ids="+fa.vouchers["S1"]["id"].(string), 0)

	// The same names and codes in project B are B's own.
	fb := newListFixture(t, e, b)
	_, codes := listVouchers(t, e, b, "limit=100")
	body, _ := listVouchers(t, e, b, "code=S1")
	if len(codes) != 5 || body["total"] != float64(1) ||
		body["vouchers"].([]any)[0].(map[string]any)["id"] != fb.vouchers["S1"]["id"] {
		t.Errorf("project B sees %v / %v", codes, body)
	}
	wantCodes(t, e, b, "campaign=Spring", 3, "S3", "S2", "S1")
	wantCodes(t, e, a, "campaign="+fb.spring, 0)
	wantCodes(t, e, a, "customer=alice", 1, "S1")
	wantCodes(t, e, b, "customer=alice", 0)
}

func TestVoucherListThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	f := newListFixture(t, e, app)
	const q = `query($in: VoucherListInput) { voucherList(input: $in) { total data { id code campaign { id name } } } }`

	got := e.GraphQL(app, q, map[string]any{"in": map[string]any{"campaign": "Spring", "order": "-code", "limit": 2}})
	if len(got.Errors) != 0 {
		t.Fatalf("errors: %+v", got.Errors)
	}
	list := got.Data["voucherList"].(map[string]any)
	data := list["data"].([]any)
	if list["total"] != float64(3) || len(data) != 2 {
		t.Fatalf("voucherList = %v", list)
	}
	viaREST, _ := listVouchers(t, e, app, "campaign=Spring&order=-code&limit=2")
	for i, d := range data {
		v, r := d.(map[string]any), viaREST["vouchers"].([]any)[i].(map[string]any)
		if v["id"] != r["id"] || v["code"] != r["code"] || v["campaign"].(map[string]any)["id"] != f.spring {
			t.Errorf("GraphQL %v, REST %v", v, r)
		}
	}

	// Without input: the REST defaults (newest first, 10 a page).
	all := e.GraphQL(app, `{ voucherList { total data { code } } }`, nil)
	if len(all.Errors) != 0 || all.Data["voucherList"].(map[string]any)["total"] != float64(5) ||
		all.Data["voucherList"].(map[string]any)["data"].([]any)[0].(map[string]any)["code"] != "A2" {
		t.Errorf("voucherList without input = %+v", all)
	}
	// The use case checks the ranges for both transports.
	bad := e.GraphQL(app, q, map[string]any{"in": map[string]any{"limit": 0}})
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_query_params" {
		t.Errorf("limit 0 over GraphQL = %+v", bad)
	}
	// Another project's key sees none of them.
	other := e.GraphQL(resttest.App(e.NewProject("project B")), q, nil)
	if len(other.Errors) != 0 || other.Data["voucherList"].(map[string]any)["total"] != float64(0) {
		t.Errorf("project B = %+v", other)
	}
}

package rest_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/rest/resttest"
)

func publish(t *testing.T, e *resttest.Env, query string, body any) resttest.Response {
	t.Helper()
	return e.DoJSON(http.MethodPost, "/v1/publications"+query, body, resttest.App(e.Project))
}

// staticCampaign makes a STATIC campaign with the given explicit codes.
// staticCampaign is resttest.StaticCampaign (a STATIC campaign with codes).
func staticCampaign(t *testing.T, e *resttest.Env, name string, codes ...string) {
	t.Helper()
	resttest.StaticCampaign(t, e, name, codes...)
}

func TestPublishFromCampaignSingleForm(t *testing.T) {
	e := resttest.New(t)
	staticCampaign(t, e, "promo", "A1", "A2", "A3")
	resp := publish(t, e, "", map[string]any{
		"campaign": map[string]any{"name": "promo"},
		"customer": map[string]any{"source_id": "alice", "name": "Alice", "email": "alice@example.com",
			"address": map[string]any{"city": "Berlin", "country": "DE"}, "metadata": map[string]any{"tier": "gold"},
			"birthday": "1990-04-01"},
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	p := resp.JSON(t)
	if !regexp.MustCompile(`^pub_[0-9A-Za-z]{32}$`).MatchString(p["id"].(string)) || !timestampRE.MatchString(p["created_at"].(string)) {
		t.Errorf("id/created_at = %v %v", p["id"], p["created_at"])
	}
	want := map[string]any{"object": "publication", "tracking_id": "alice", "channel": "API", "source_id": nil, "result": "SUCCESS"}
	for k, w := range want {
		if got, ok := p[k]; !ok || got != w {
			t.Errorf("%s = %#v (present %v), want %#v", k, got, ok, w)
		}
	}
	if md, ok := p["metadata"].(map[string]any); !ok || len(md) != 0 {
		t.Errorf("metadata = %v", p["metadata"])
	}
	if _, ok := p["vouchers"]; ok {
		t.Error("single form has a vouchers array")
	}
	cust := p["customer"].(map[string]any)
	for _, k := range []string{"summary", "loyalty", "referrals"} {
		if v, ok := cust[k]; !ok || v != nil {
			t.Errorf("customer.%s = %v (present %v), want null", k, v, ok)
		}
	}
	if cust["object"] != "customer" || cust["source_id"] != "alice" || cust["email"] != "alice@example.com" ||
		cust["id"] != p["customer_id"] || cust["birthday"] != "1990-04-01" ||
		cust["address"].(map[string]any)["city"] != "Berlin" || cust["metadata"].(map[string]any)["tier"] != "gold" {
		t.Errorf("customer = %v", cust)
	}
	v := p["voucher"].(map[string]any)
	ids := p["vouchers_id"].([]any)
	if len(ids) != 1 || ids[0] != v["id"] || v["holder_id"] != p["customer_id"] || v["campaign"] != "promo" ||
		v["publish"].(map[string]any)["count"] != float64(1) {
		t.Errorf("voucher = %v, vouchers_id = %v", v, ids)
	}
	if !strings.HasPrefix(v["code"].(string), "A") {
		t.Errorf("code %v not from the campaign", v["code"])
	}
	// The stored voucher agrees.
	got := e.Do(http.MethodGet, "/v1/vouchers/"+v["code"].(string), nil, resttest.App(e.Project)).JSON(t)
	if got["holder_id"] != p["customer_id"] || got["publish"].(map[string]any)["count"] != float64(1) {
		t.Errorf("voucher after publication = %v", got)
	}
}

func TestPublishCountForm(t *testing.T) {
	e := resttest.New(t)
	staticCampaign(t, e, "many", "M1", "M2", "M3", "M4")
	resp := publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "many", "count": 3}, "customer": map[string]any{"source_id": "bob"}, "channel": "myown"})
	if resp.Status != http.StatusOK {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	p := resp.JSON(t)
	codes, ids := p["vouchers"].([]any), p["vouchers_id"].([]any)
	if len(codes) != 3 || len(ids) != 3 || p["channel"] != "myown" {
		t.Fatalf("publication = %v", p)
	}
	if _, ok := p["voucher"]; ok {
		t.Error("count form has a voucher object")
	}
	distinct := map[any]bool{}
	for _, c := range codes {
		distinct[c] = true
	}
	if len(distinct) != 3 {
		t.Errorf("codes = %v", codes)
	}
	// One left: asking for two fails and publishes nothing.
	resp = publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "many", "count": 2}, "customer": map[string]any{"source_id": "carol"}})
	if got := resp.JSON(t); resp.Status != http.StatusBadRequest || got["key"] != "no_voucher_suitable_for_publication" {
		t.Fatalf("%d %v", resp.Status, got)
	}
	if n := e.DB.Client.Voucher.Query().Where(voucher.PublishCount(0)).CountX(systemCtx()); n != 1 {
		t.Errorf("%d unpublished vouchers, want 1", n)
	}
	if n := e.GraphQL(resttest.App(e.Project), `{ customers(where: {sourceID: "carol"}) { totalCount } }`, nil); n.Data["customers"].(map[string]any)["totalCount"] != float64(0) {
		t.Error("a failed publication created its customer")
	}
}

func TestPublishSpecificVoucher(t *testing.T) {
	e := resttest.New(t)
	staticCampaign(t, e, "specific", "ONE", "TWO")
	e.GraphQL(resttest.App(e.Project), `mutation { addVoucher(campaign: "specific", input: {code: "LATER", startDate: "2099-01-01T00:00:00Z"}) { id } }`, nil)
	e.GraphQL(resttest.App(e.Project), `mutation { addVoucher(campaign: "specific", input: {code: "GONE", startDate: "2001-01-01T00:00:00Z", expirationDate: "2002-01-01T00:00:00Z"}) { id } }`, nil)
	resp := publish(t, e, "", map[string]any{"voucher": "ONE", "customer": map[string]any{"source_id": "dan"}})
	if resp.Status != http.StatusOK || resp.JSON(t)["voucher"].(map[string]any)["code"] != "ONE" {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		key    string
	}{
		{"already published", map[string]any{"voucher": "ONE", "customer": map[string]any{"source_id": "eve"}}, 400, "voucher_already_published"},
		{"unknown code", map[string]any{"voucher": "NOPE", "customer": map[string]any{"source_id": "eve"}}, 404, "not_found"},
		{"not started", map[string]any{"voucher": "LATER", "customer": map[string]any{"source_id": "eve"}}, 400, "voucher_not_active"},
		{"expired", map[string]any{"voucher": "GONE", "customer": map[string]any{"source_id": "eve"}}, 400, "voucher_expired"},
		{"no source", map[string]any{"customer": map[string]any{"source_id": "eve"}}, 400, "missing_vouchers"},
		{"both sources", map[string]any{"voucher": "TWO", "campaign": "specific", "customer": map[string]any{"source_id": "eve"}}, 400, "invalid_payload"},
		{"no customer", map[string]any{"voucher": "TWO"}, 400, "invalid_payload"},
		{"unknown campaign", map[string]any{"campaign": map[string]any{"name": "nope"}, "customer": map[string]any{"source_id": "eve"}}, 404, "not_found"},
		{"unknown customer id", map[string]any{"voucher": "TWO", "customer": map[string]any{"id": "cust_nope"}}, 404, "not_found"},
		{"count 0", map[string]any{"campaign": map[string]any{"name": "specific", "count": 0}, "customer": map[string]any{"source_id": "eve"}}, 400, "invalid_payload"},
		{"count 21", map[string]any{"campaign": map[string]any{"name": "specific", "count": 21}, "customer": map[string]any{"source_id": "eve"}}, 400, "invalid_payload"},
		{"count with source_id", map[string]any{"campaign": map[string]any{"name": "specific", "count": 2}, "source_id": "s", "customer": map[string]any{"source_id": "eve"}}, 400, "too_many_vouchers_requested"},
		{"bad email", map[string]any{"voucher": "TWO", "customer": map[string]any{"source_id": "eve", "email": "not-mail"}}, 400, "invalid_payload"},
		{"customer wrong type", map[string]any{"voucher": "TWO", "customer": map[string]any{"source_id": 5}}, 400, "invalid_payload"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := publish(t, e, "", tc.body)
			got := resp.JSON(t)
			if resp.Status != tc.status || got["key"] != tc.key || got["details"] == "" {
				t.Errorf("%d %v; want %d %s", resp.Status, got, tc.status, tc.key)
			}
		})
	}
	unknown := publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "nope"}, "customer": "x"}).JSON(t)
	if unknown["resource_id"] != "nope" || unknown["resource_type"] != "campaign" {
		t.Errorf("404 = %v", unknown)
	}
	if got := publish(t, e, "", map[string]any{"voucher": "NOPE", "customer": "x"}).JSON(t); got["resource_type"] != "voucher" {
		t.Errorf("404 = %v", got)
	}
	if n := e.DB.Client.Publication.Query().CountX(systemCtx()); n != 1 {
		t.Errorf("%d publications stored, want 1", n)
	}
}

func TestPublishAutoUpdateGeneratesCodes(t *testing.T) {
	e := resttest.New(t)
	createCampaign(t, e, map[string]any{"name": "auto", "type": "AUTO_UPDATE", "voucher": map[string]any{
		"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 5},
		"code_config": map[string]any{"pattern": "AU-####", "charset": "XYZ"}}})
	p := publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "auto", "count": 2}, "customer": map[string]any{"source_id": "fay"}})
	if p.Status != http.StatusOK {
		t.Fatalf("%d %s", p.Status, p.Body)
	}
	for _, c := range p.JSON(t)["vouchers"].([]any) {
		if !regexp.MustCompile(`^AU-[XYZ]{4}$`).MatchString(c.(string)) {
			t.Errorf("generated code %q", c)
		}
	}
	if c := e.Do(http.MethodGet, "/v1/campaigns/auto", nil, resttest.App(e.Project)).JSON(t); c["vouchers_count"] != float64(2) {
		t.Errorf("vouchers_count = %v", c["vouchers_count"])
	}
}

func TestPublishJoinOnce(t *testing.T) {
	e := resttest.New(t)
	staticCampaign(t, e, "once", "J1", "J2", "J3", "J4")
	first := publish(t, e, "?join_once=true", map[string]any{"campaign": map[string]any{"name": "once"}, "customer": map[string]any{"source_id": "gus"}}).JSON(t)
	code := first["voucher"].(map[string]any)["code"]
	for _, q := range []string{"?join_once=true", ""} {
		body := map[string]any{"campaign": map[string]any{"name": "once"}, "customer": map[string]any{"source_id": "gus"}}
		if q == "" {
			body["join_once"] = true // the v2 SDK sends it in the body
		}
		again := publish(t, e, q, body).JSON(t)
		if again["voucher"].(map[string]any)["code"] != code || again["id"] != first["id"] {
			t.Errorf("join_once %q gave %v, first was %v", q, again["voucher"].(map[string]any)["code"], code)
		}
	}
	if n := e.DB.Client.Publication.Query().CountX(systemCtx()); n != 1 {
		t.Errorf("%d publications, want 1", n)
	}
	// Without the flag the same customer gets another code (campaign join_once is false).
	other := publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "once"}, "customer": map[string]any{"source_id": "gus"}}).JSON(t)
	if other["voucher"].(map[string]any)["code"] == code {
		t.Error("a publication without join_once returned the held code")
	}
	// A campaign that is join_once itself refuses a second code.
	createCampaign(t, e, map[string]any{"name": "strict", "type": "STATIC", "join_once": true})
	for _, c := range []string{"S1", "S2"} {
		addVoucher(t, e, "strict", map[string]any{"code": c})
	}
	publish(t, e, "", map[string]any{"campaign": "strict", "customer": map[string]any{"source_id": "hal"}})
	second := publish(t, e, "", map[string]any{"campaign": "strict", "customer": map[string]any{"source_id": "hal"}})
	if second.Status != http.StatusBadRequest || second.JSON(t)["key"] != "voucher_cannot_be_published" {
		t.Errorf("second code from a join_once campaign: %d %s", second.Status, second.Body)
	}
	if r := publish(t, e, "?join_once=maybe", map[string]any{"campaign": "strict", "customer": "x"}); r.Status != http.StatusBadRequest {
		t.Errorf("join_once=maybe: %d", r.Status)
	}
}

func TestPublishSourceIDIsIdempotent(t *testing.T) {
	e := resttest.New(t)
	staticCampaign(t, e, "idem", "I1", "I2", "I3")
	body := map[string]any{"campaign": map[string]any{"name": "idem"}, "customer": map[string]any{"source_id": "ivy"}, "source_id": "order-1"}
	first := publish(t, e, "", body).JSON(t)
	again := publish(t, e, "", body).JSON(t)
	if first["id"] != again["id"] || first["source_id"] != "order-1" ||
		first["voucher"].(map[string]any)["code"] != again["voucher"].(map[string]any)["code"] {
		t.Errorf("repeat gave %v, first %v", again["id"], first["id"])
	}
	clash := publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "idem"}, "customer": map[string]any{"source_id": "jon"}, "source_id": "order-1"})
	if got := clash.JSON(t); clash.Status != http.StatusBadRequest || got["key"] != "duplicate_source_id" ||
		got["details"] != "Publication with source_id: 'order-1' already exists" {
		t.Errorf("other customer, same source_id: %d %v", clash.Status, got)
	}
	if n := e.DB.Client.Publication.Query().Where(publication.SourceID("order-1")).CountX(systemCtx()); n != 1 {
		t.Errorf("%d publications for order-1", n)
	}
	if n := e.DB.Client.Voucher.Query().Where(voucher.PublishCountGT(0)).CountX(systemCtx()); n != 1 {
		t.Errorf("%d vouchers published", n)
	}
}

func TestCustomers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	created := e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "kim", "name": "Kim", "phone": "+48 123"}, app)
	if created.Status != http.StatusOK {
		t.Fatalf("%d %s", created.Status, created.Body)
	}
	c := created.JSON(t)
	if !regexp.MustCompile(`^cust_[0-9A-Za-z]{24}$`).MatchString(c["id"].(string)) || c["updated_at"] != nil {
		t.Errorf("customer = %v", c)
	}
	updated := e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "kim", "email": "kim@example.com",
		"address": map[string]any{"city": "Gdańsk"}, "metadata": map[string]any{"vip": true}}, app).JSON(t)
	if updated["id"] != c["id"] || updated["name"] != "Kim" || updated["email"] != "kim@example.com" || updated["updated_at"] == nil ||
		updated["address"].(map[string]any)["city"] != "Gdańsk" || updated["metadata"].(map[string]any)["vip"] != true {
		t.Errorf("update by source_id = %v", updated)
	}
	unchanged := e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "kim"}, app).JSON(t)
	if unchanged["updated_at"] != updated["updated_at"] || unchanged["metadata"].(map[string]any)["vip"] != true {
		t.Errorf("upsert without profile fields changed the customer: %v", unchanged)
	}
	for _, key := range []string{c["id"].(string), "kim"} {
		if got := e.Do(http.MethodGet, "/v1/customers/"+key, nil, app); got.Status != http.StatusOK || got.JSON(t)["id"] != c["id"] {
			t.Errorf("GET %s: %d", key, got.Status)
		}
	}
	if got := e.Do(http.MethodGet, "/v1/customers/nobody", nil, app); got.Status != http.StatusNotFound || got.JSON(t)["resource_type"] != "customer" {
		t.Errorf("unknown customer: %d %s", got.Status, got.Body)
	}
	// id wins over source_id and its profile fields update that customer.
	byID := e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"id": c["id"], "source_id": "other", "name": "Kim K."}, app).JSON(t)
	if byID["id"] != c["id"] || byID["source_id"] != "kim" || byID["name"] != "Kim K." {
		t.Errorf("update by id = %v", byID)
	}
	if got := e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "x", "birthday": "31-12-1990"}, app); got.Status != http.StatusBadRequest {
		t.Errorf("bad birthday: %d", got.Status)
	}
	if got := e.Do(http.MethodGet, "/v1/customers/kim", nil, resttest.App(e.NewProject("B"))); got.Status != http.StatusNotFound {
		t.Errorf("another project sees the customer: %d", got.Status)
	}
}

// TestCustomerResponseHasAssets: every customer response form carries
// assets with both cockpit links present and null (this service hosts no
// cockpit or preference center).
func TestCustomerResponseHasAssets(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "promo", "AS1")
	const want = `{"cockpit_preference_center_url":null,"cockpit_url":null}`
	created := must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann"}, app), http.StatusOK)
	got := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)
	pub := publish(t, e, "", map[string]any{"voucher": "AS1", "customer": map[string]any{"source_id": "ann"}})
	if pub.Status != http.StatusOK {
		t.Fatalf("publish: %d %s", pub.Status, pub.Body)
	}
	for name, c := range map[string]map[string]any{"POST /v1/customers": created, "GET /v1/customers": got,
		"publication customer": pub.JSON(t)["customer"].(map[string]any)} {
		if a, ok := c["assets"]; !ok || mustJSON(a) != want {
			t.Errorf("%s: assets = %v (present %v), want %s", name, a, ok, want)
		}
	}
	// GraphQL's Customer.assets carries the same links.
	r := e.GraphQL(app, `query($id: ID!) { node(id: $id) { ... on Customer { assets { cockpitURL cockpitPreferenceCenterURL } } } }`,
		map[string]any{"id": created["id"]})
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	if a := mustJSON(r.Data["node"].(map[string]any)["assets"]); a != `{"cockpitPreferenceCenterURL":null,"cockpitURL":null}` {
		t.Errorf("GraphQL Customer.assets = %s", a)
	}
}

func TestGraphQLPublish(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "gql", "G1", "G2", "G3")
	r := e.GraphQL(app, `mutation { publish(input: {campaign: {name: "gql", count: 2}, customer: {sourceID: "lea"}, sourceID: "p-1"}) {
		id channel sourceID voucherCodes customer { sourceID } vouchers { totalCount edges { node { code holderID } } } } }`, nil)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "too_many_vouchers_requested" {
		t.Fatalf("count 2 with sourceID: %+v", r.Errors)
	}
	r = e.GraphQL(app, `mutation { publish(input: {campaign: {name: "gql"}, customer: {sourceID: "lea"}, sourceID: "p-1"}, joinOnce: true) {
		id channel sourceID voucherCodes customer { id sourceID } vouchers { totalCount edges { node { code holderID } } } } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	p := r.Data["publish"].(map[string]any)
	codes := p["voucherCodes"].([]any)
	vs := p["vouchers"].(map[string]any)
	if p["channel"] != "API" || len(codes) != 1 || vs["totalCount"] != float64(1) ||
		vs["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)["holderID"] != p["customer"].(map[string]any)["id"] {
		t.Errorf("publish = %v", p)
	}
	// The publication is reachable from the customer, the voucher and the root.
	q := e.GraphQL(app, `query($code: String!) {
		customer(idOrSourceID: "lea") { publications { totalCount } }
		voucher(codeOrID: $code) { publishCount publications { edges { node { id } } } }
		publications(where: {sourceID: "p-1"}) { totalCount }
	}`, map[string]any{"code": codes[0]})
	if len(q.Errors) > 0 {
		t.Fatal(q.Errors)
	}
	if q.Data["customer"].(map[string]any)["publications"].(map[string]any)["totalCount"] != float64(1) ||
		q.Data["voucher"].(map[string]any)["publishCount"] != float64(1) ||
		q.Data["publications"].(map[string]any)["totalCount"] != float64(1) {
		t.Errorf("lookups = %v", q.Data)
	}
	// Same operation through REST: the same resolver answers.
	rest := publish(t, e, "", map[string]any{"campaign": "gql", "customer": map[string]any{"source_id": "lea"}, "source_id": "p-1"}).JSON(t)
	if rest["id"] != p["id"] {
		t.Errorf("REST replay id %v, GraphQL %v", rest["id"], p["id"])
	}
}

// TestPublishValuesTheDatabaseRefuses: PostgreSQL cannot store text with a
// NUL character; such a request is a 400 invalid_payload there (SQLite
// stores it: 200), never a 500, and a refused request writes nothing.
func TestPublishValuesTheDatabaseRefuses(t *testing.T) {
	e := resttest.New(t)
	staticCampaign(t, e, "promo", "N1", "N2", "N3", "N4", "N5")
	bodies := map[string]map[string]any{
		"metadata":           {"campaign": "promo", "customer": map[string]any{"source_id": "m"}, "metadata": map[string]any{"x": "a\x00b"}},
		"customer source_id": {"campaign": "promo", "customer": map[string]any{"source_id": "a\x00b"}},
		"channel":            {"campaign": "promo", "customer": map[string]any{"source_id": "c"}, "channel": "a\x00b"},
		"source_id":          {"campaign": "promo", "customer": map[string]any{"source_id": "s"}, "source_id": "a\x00b"},
		"customer name":      {"campaign": "promo", "customer": map[string]any{"source_id": "n", "name": "a\x00b"}},
	}
	refused := 0
	for name, body := range bodies {
		r := publish(t, e, "", body)
		switch {
		case r.Status == http.StatusOK:
		case r.Status == http.StatusBadRequest && r.JSON(t)["key"] == "invalid_payload" && !strings.Contains(string(r.Body), "UTF8"):
			refused++
		default:
			t.Errorf("%s with a NUL character: %d %s", name, r.Status, r.Body)
		}
	}
	if entdbtest.IsPostgres() && refused != len(bodies) {
		t.Errorf("PostgreSQL refused %d of %d", refused, len(bodies))
	}
	stored := e.DB.Client.Publication.Query().CountX(systemCtx())
	customers := e.DB.Client.Customer.Query().CountX(systemCtx())
	if stored != len(bodies)-refused || customers != len(bodies)-refused {
		t.Errorf("%d refused, but %d publications and %d customers stored", refused, stored, customers)
	}
}

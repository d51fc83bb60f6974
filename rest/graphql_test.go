package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestGraphQLCreateAndReadCampaign(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	created := e.GraphQL(app, `mutation($in: CreateCampaignInput!) {
		createCampaign(input: $in) { id name campaignType type joinOnce
			voucher { type discount { type amountOff } codeConfig { length pattern prefix } isReferralCode } } }`,
		map[string]any{"in": map[string]any{
			"name": "GQL", "campaignType": "DISCOUNT_COUPONS",
			"voucher": map[string]any{"type": "DISCOUNT_VOUCHER",
				"discount":   map[string]any{"type": "AMOUNT", "amountOff": 500},
				"codeConfig": map[string]any{"pattern": "GQL-####", "prefix": "X"}},
		}})
	if len(created.Errors) > 0 {
		t.Fatalf("createCampaign: %+v", created.Errors)
	}
	c := created.Data["createCampaign"].(map[string]any)
	cc := c["voucher"].(map[string]any)["codeConfig"].(map[string]any)
	if c["campaignType"] != "DISCOUNT_COUPONS" || c["type"] != "AUTO_UPDATE" || cc["length"] != float64(4) || cc["prefix"] != "X" {
		t.Errorf("created = %v", c)
	}
	// The same campaign through REST: one resolver, two transports.
	resp := e.Do(http.MethodGet, "/v1/campaigns/"+c["id"].(string), nil, app)
	if resp.Status != http.StatusOK || resp.JSON(t)["name"] != "GQL" {
		t.Fatalf("REST read of GraphQL-created campaign: %d %s", resp.Status, resp.Body)
	}
	byName := e.GraphQL(app, `{ campaign(idOrName: "GQL") { id } }`, nil)
	if byName.Data["campaign"].(map[string]any)["id"] != c["id"] {
		t.Errorf("campaign by name = %+v", byName)
	}
}

func TestGraphQLErrorsCarryCodeAndKey(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	bad := e.GraphQL(app, `mutation { createCampaign(input: {name: "x", voucher: {type: DISCOUNT_VOUCHER, discount: {type: PERCENT, percentOff: 150}}}) { id } }`, nil)
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["code"] != float64(400) || bad.Errors[0].Extensions["key"] != "invalid_payload" ||
		!strings.Contains(bad.Errors[0].Extensions["details"].(string), "percent_off") {
		t.Errorf("validation error = %+v", bad.Errors)
	}
	dup := e.GraphQL(app, `mutation { a: createCampaign(input: {name: "d"}) { id } }`, nil)
	dup = e.GraphQL(app, `mutation { a: createCampaign(input: {name: "d"}) { id } }`, nil)
	if len(dup.Errors) != 1 || dup.Errors[0].Extensions["code"] != float64(409) || dup.Errors[0].Extensions["key"] != "duplicate_found" {
		t.Errorf("duplicate error = %+v", dup.Errors)
	}
	enum := e.GraphQL(app, `mutation { createCampaign(input: {name: "x", campaignType: FREEBIES}) { id } }`, nil)
	if len(enum.Errors) == 0 || enum.Errors[0].Extensions["code"] != float64(400) || enum.Errors[0].Extensions["key"] == nil {
		t.Errorf("unknown enum error = %+v", enum.Errors)
	}
	// A failed mutation leaves nothing behind: the second field fails, so the
	// first one's campaign is rolled back with it.
	partial := e.GraphQL(app, `mutation { a: createCampaign(input: {name: "ok"}) { id } b: createCampaign(input: {name: ""}) { id } }`, nil)
	if len(partial.Errors) == 0 {
		t.Fatalf("expected an error, got %+v", partial)
	}
	if n := e.DB.Client.Campaign.Query().CountX(systemCtx()); n != 1 {
		t.Errorf("%d campaigns stored, want only the first \"d\"", n)
	}
}

func TestGraphQLCampaignConnection(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	for i := range 7 {
		kind := "DISCOUNT_COUPONS"
		if i%2 == 1 {
			kind = "GIFT_VOUCHERS"
		}
		createCampaign(t, e, map[string]any{"name": fmt.Sprintf("c%d", i), "campaign_type": kind})
	}
	const q = `query($after: Cursor, $where: CampaignWhereInput) {
		campaigns(first: 3, after: $after, orderBy: [{field: NAME, direction: DESC}], where: $where) {
			totalCount pageInfo { hasNextPage endCursor } edges { node { name } } } }`
	var names []string
	var after any
	for page := 0; ; page++ {
		r := e.GraphQL(app, q, map[string]any{"after": after})
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		conn := r.Data["campaigns"].(map[string]any)
		if conn["totalCount"] != float64(7) {
			t.Fatalf("totalCount = %v", conn["totalCount"])
		}
		for _, edge := range conn["edges"].([]any) {
			names = append(names, edge.(map[string]any)["node"].(map[string]any)["name"].(string))
		}
		pi := conn["pageInfo"].(map[string]any)
		if pi["hasNextPage"] != true {
			break
		}
		after = pi["endCursor"]
		if page > 5 {
			t.Fatal("paging does not end")
		}
	}
	if got := strings.Join(names, ","); got != "c6,c5,c4,c3,c2,c1,c0" {
		t.Errorf("paged names = %s", got)
	}
	gifts := e.GraphQL(app, q, map[string]any{"where": map[string]any{"campaignType": "GIFT_VOUCHERS"}})
	if gifts.Data["campaigns"].(map[string]any)["totalCount"] != float64(3) {
		t.Errorf("filtered totalCount = %v", gifts.Data["campaigns"])
	}
	// Without first/last a default page applies; oversized pages are refused.
	all := e.GraphQL(app, `{ campaigns { edges { node { id } } } }`, nil)
	if n := len(all.Data["campaigns"].(map[string]any)["edges"].([]any)); n != 7 {
		t.Errorf("default page returned %d edges", n)
	}
	big := e.GraphQL(app, `{ campaigns(first: 1000) { totalCount } }`, nil)
	if len(big.Errors) != 1 || big.Errors[0].Extensions["code"] != float64(400) {
		t.Errorf("first: 1000 = %+v", big)
	}
}

func TestGraphQLOverGETAndIntrospection(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createCampaign(t, e, map[string]any{"name": "viaGET"})
	resp := e.Do(http.MethodGet, "/graphql?query="+url.QueryEscape(`{ campaigns { totalCount } }`), nil, app)
	if resp.Status != http.StatusOK || !strings.Contains(string(resp.Body), `"totalCount":1`) {
		t.Errorf("GET query: %d %s", resp.Status, resp.Body)
	}
	mut := e.Do(http.MethodGet, "/graphql?query="+url.QueryEscape(`mutation { createCampaign(input: {name: "no"}) { id } }`), nil, app)
	if !strings.Contains(string(mut.Body), "errors") || e.DB.Client.Campaign.Query().CountX(systemCtx()) != 1 {
		t.Errorf("GET mutation was executed: %d %s", mut.Status, mut.Body)
	}
	intro := e.GraphQL(app, `{ __schema { queryType { name } } __type(name: "Campaign") { fields { name } } }`, nil)
	if len(intro.Errors) > 0 || !strings.Contains(fmt.Sprint(intro.Data["__type"]), "vouchersCount") {
		t.Errorf("introspection: %+v", intro)
	}
	for _, f := range intro.Data["__type"].(map[string]any)["fields"].([]any) {
		if name := f.(map[string]any)["name"]; name == "projectID" || name == "projectId" {
			t.Errorf("project id leaks into the graph as %v", name)
		}
	}
}

func TestGraphQLLimits(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	deep := "{ campaigns { edges { node { voucher { codeConfig { length } } } } } }"
	if r := e.GraphQL(app, deep, nil); len(r.Errors) > 0 {
		t.Fatalf("reasonable query refused: %+v", r.Errors)
	}
	// Fragments nest as deep as they expand.
	frag := "fragment F on Campaign { id voucher { discount { type } } } " +
		"query { campaigns { edges { node { ...F } } } }"
	if r := e.GraphQL(app, frag, nil); len(r.Errors) > 0 {
		t.Fatalf("fragment query refused: %+v", r.Errors)
	}
	// Introspection is the classic way to nest deeply: refused past
	// MaxIntrospectionDepth (GraphiQL's own query, nine ofType deep, passes).
	tooDeep := "{ __schema { types { fields { type { " + strings.Repeat("ofType { ", 30) + "name" +
		strings.Repeat(" }", 30) + " } } } } }"
	if r := e.GraphQL(app, tooDeep, nil); len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "query_too_deep" {
		t.Errorf("deep query not refused: %+v", r.Errors)
	}
	wide := "{ " + strings.Repeat("campaigns { edges { node { id name type campaignType } } } ", 1) + "}"
	var aliases strings.Builder
	aliases.WriteString("{ ")
	for i := range 300 {
		fmt.Fprintf(&aliases, "a%d: campaigns { totalCount pageInfo { hasNextPage } } ", i)
	}
	aliases.WriteString("}")
	if r := e.GraphQL(app, wide, nil); len(r.Errors) > 0 {
		t.Fatalf("wide query refused: %+v", r.Errors)
	}
	r := e.GraphQL(app, aliases.String(), nil)
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "complexity") {
		t.Errorf("300 aliased connections were not refused by the complexity limit: %d errors", len(r.Errors))
	}
}

// TestGraphQLMalformedRequests: a body that is not a GraphQL request is a
// 4xx with code and key, never a 500.
func TestGraphQLMalformedRequests(t *testing.T) {
	e := resttest.New(t)
	for _, body := range []string{"", "{", "[]", `"query"`, "123", `{"query": 5}`} {
		resp := e.Do(http.MethodPost, "/graphql", []byte(body), resttest.App(e.Project))
		if resp.Status < 400 || resp.Status >= 500 || !strings.Contains(string(resp.Body), `"key"`) {
			t.Errorf("body %q: %d %s", body, resp.Status, resp.Body)
		}
	}
}

package rest_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestEveryRouteAnswersBadInputWithAnErrorObject sends every route of the
// service malformed and hostile input — broken JSON, bodies of the wrong
// type, every common field with a wrong type or an out-of-range value,
// numbers past int64, junk query parameters (a NUL byte among them) and
// path identifiers that are junk or real objects of another kind — and
// checks that none is answered with a 5xx, and that every 4xx is the
// service's error object (code, key, message, request_id; GraphQL's in
// errors[0].extensions) without SQL or Go text in it. Identifiers that
// find nothing (404 without a body) are not tried further.
func TestEveryRouteAnswersBadInputWithAnErrorObject(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit, o.ClientRateLimit = -1, -1 })
	e.SkipContract = true // the contract test covers shapes; here every answer is checked below
	app := resttest.App(e.Project)
	mk := e.NewManagementKey()
	client := resttest.Client(e.Project, "https://shop.example")
	ls := newLoyaltySetup(t, e)
	ids := sweepFixtures(t, e, app, mk)
	ids = append(ids, strings.Repeat("z", 300), "%25", e.Project.ProjectID, ls.Program, ls.CardDef, ls.Member, ls.Card, ls.Cust)

	routes := e.Routes()
	// Deletions after everything else, and the management API (which can
	// delete the project and its keys) last.
	rank := func(r [2]string) int {
		switch {
		case strings.HasPrefix(r[1], "/management/"):
			return 2
		case r[0] == http.MethodDelete:
			return 1
		}
		return 0
	}
	sort.SliceStable(routes, func(i, j int) bool { return rank(routes[i]) < rank(routes[j]) })

	params := regexp.MustCompile(`[:*][A-Za-z0-9_]+`)
	failures := 0
	check := func(method, uri, body string, resp resttest.Response, graphQL bool) {
		t.Helper()
		if problem := sweepProblem(resp, graphQL); problem != "" {
			failures++
			if failures <= 20 {
				t.Errorf("%s %s with body %.60q: %s: %d %.300s", method, uri, body, problem, resp.Status, resp.Body)
			}
		}
	}
	for _, r := range routes {
		method, tmpl := r[0], r[1]
		h := credentialsFor(tmpl, app, mk, client, ls.H)
		graphQL := strings.HasSuffix(tmpl, "/graphql")
		seen := map[string]bool{}
		for _, id := range ids {
			path := params.ReplaceAllString(tmpl, id)
			if seen[path] {
				continue
			}
			seen[path] = true
			probe := e.Do(method, path, nil, h)
			check(method, path, "", probe, graphQL)
			if path != tmpl && probe.Status == http.StatusNotFound {
				continue // nothing behind this identifier: its bodies would all be 404s
			}
			for _, q := range []string{"", sweepQuery} {
				for _, b := range sweepBodies {
					check(method, path+q, b, e.Do(method, path+q, []byte(b), h), graphQL)
				}
			}
		}
	}
	if failures > 20 {
		t.Errorf("%d answers in all", failures)
	}
}

// credentialsFor returns the credentials a route takes: the management
// key, the client-side key, the loyalty v2 token or the application key.
func credentialsFor(tmpl string, app, mk, client, v2 resttest.Headers) resttest.Headers {
	switch {
	case strings.HasPrefix(tmpl, "/management/"):
		return mk
	case strings.HasPrefix(tmpl, "/client/"):
		return client
	case strings.HasPrefix(tmpl, "/v2/"):
		return v2
	}
	return app
}

// sweepProblem says what is wrong with an answer to bad input ("" when
// nothing is).
func sweepProblem(resp resttest.Response, graphQL bool) string {
	switch {
	case resp.Status >= 500:
		return "server error"
	case resp.Status < 400:
		return ""
	}
	var obj map[string]any
	if err := json.Unmarshal(resp.Body, &obj); err != nil {
		return "error that is not JSON"
	}
	if graphQL {
		// extensions.code is the status the error has on REST: a protocol
		// error is 400 there, answered 422 over application/json (gqlgen).
		errs, _ := obj["errors"].([]any)
		if len(errs) == 0 {
			return "GraphQL error without errors"
		}
		first, _ := errs[0].(map[string]any)
		ext, _ := first["extensions"].(map[string]any)
		if ext == nil {
			return "GraphQL error without extensions"
		}
		obj = map[string]any{"code": ext["code"], "key": ext["key"], "request_id": ext["request_id"], "message": first["message"]}
		if code, _ := obj["code"].(float64); code < 400 || code >= 500 {
			return "GraphQL error whose code is not a 4xx"
		}
	} else if obj["code"] != float64(resp.Status) {
		return "error whose code is not the HTTP status"
	}
	for _, k := range []string{"key", "message", "request_id"} {
		if s, _ := obj[k].(string); s == "" {
			return "error without " + k
		}
	}
	if leak := sqlOrGoText.FindString(string(resp.Body)); leak != "" {
		return "error showing internals (" + leak + ")"
	}
	return ""
}

// sqlOrGoText finds what an error must never show: SQL, driver messages,
// Go source positions and stack traces.
var sqlOrGoText = regexp.MustCompile(`(?i)\b(select \S+ from|insert into|update \S+ set|pq: |sqlite|SQL logic error|goroutine \d+|\.go:\d+|runtime error|panic:)`)

// sweepQuery is every list parameter with a value of the wrong kind.
const sweepQuery = "?limit=-1&page=abc&order=xyz&filters[x]=y&start_date=garbage&campaign=&customer=%00&ids=x&status=X&starting_after=x&cursor=x"

// sweepBodies are request bodies no route accepts as they are.
var sweepBodies = []string{"", "{", "null", "[]", `"s"`, "1", `{"a":1}`,
	// every common field with a value of the wrong type
	`{"name":{},"code":[],"metadata":"x","amount":"x","order":"x","customer":"x","redeemables":"x","voucher":"x","type":{},` +
		`"discount":"x","limit":"x","start_date":"garbage","expiration_date":1,"active":"yes","quantity":-1,"source_id":{},"id":[],` +
		`"email":5,"points":"x","events":"x","target_url":5,"items":"x","filters":"x","rules":"x","campaign":"x","publication":"x",` +
		`"reward":"x","status":1,"customer_id":[],"voucher_id":{},"gift":"x","loyalty_card":"x","validity_timeframe":"x",` +
		`"categories":"x","redeemable":"x","session":"x"}`,
	// the right types with values out of range or of unknown kinds
	`{"name":"x","code":"x","metadata":{"a":{"b":[1,{"c":null}]}},"amount":-5,"order":{"amount":-1,"items":[{"quantity":-1,"price":"x"}]},` +
		`"customer":{"id":"nope","source_id":""},"redeemables":[{"object":"voucher","id":""},{"object":"bogus"}],"voucher":{"type":"X"},` +
		`"type":"X","discount":{"type":"X"},"limit":1e30,"start_date":"2020-13-45","active":null,"quantity":9223372036854775808,` +
		`"source_id":"","id":"","email":"not-an-email","points":-1,"events":["nope"],"target_url":"ftp://x","items":[null],` +
		`"filters":{"junction":"xor"},"rules":{"1":{"name":"x"}},"campaign":{},"publication":{},"reward":{},"status":"X",` +
		`"gift":{"amount":-1},"loyalty_card":{"points":-1},"validity_timeframe":{"interval":"x"},"session":{"type":"LOCK","ttl":-1}}`,
	// amounts at the edge of int64, on real codes
	`{"amount":9223372036854775807,"points":9223372036854775807,"quantity":2147483648,` +
		`"order":{"amount":9223372036854775807,"items":[{"quantity":9223372036854775807,"price":9223372036854775807}]},` +
		`"redeemables":[{"object":"voucher","id":"x"},{"object":"voucher","id":"g","gift":{"credits":9223372036854775807}}],` +
		`"customer":{"source_id":"x"},"gift":{"amount":9223372036854775807},"discount":{"type":"AMOUNT","amount_off":9223372036854775807}}`,
}

// sweepFixtures creates objects for the sweep's path identifiers to find
// — a campaign, a discount and a gift code, a customer, a publication,
// redemptions, a segment, a validation rule, a category and a webhook, the
// campaign, code and customer all reachable as "x" too — and returns their
// identifiers, "x" first.
func sweepFixtures(t testing.TB, e *resttest.Env, app, mk resttest.Headers) []string {
	t.Helper()
	ids := []string{"x"}
	add := func(method, path, body string, h resttest.Headers) {
		t.Helper()
		r := e.Do(method, path, []byte(body), h)
		if r.Status/100 != 2 {
			t.Fatalf("fixture %s %s: %d %s", method, path, r.Status, r.Body)
		}
		if id, _ := r.JSON(t)["id"].(string); id != "" {
			ids = append(ids, id)
		}
	}
	add("POST", "/v1/campaigns", `{"name":"x","type":"STATIC","vouchers_count":3,
		"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`, app)
	for i := 0; !strings.Contains(string(e.Do("GET", "/v1/campaigns/x", nil, app).Body), `"vouchers_generation_status":"DONE"`); i++ {
		if i > 500 {
			t.Fatal("campaign x: codes not generated")
		}
		waitABit()
	}
	add("POST", "/v1/vouchers/x", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10}}`, app)
	add("POST", "/v1/vouchers/g", `{"type":"GIFT_VOUCHER","gift":{"amount":1000}}`, app)
	add("POST", "/v1/customers", `{"source_id":"x"}`, app)
	add("POST", "/v1/publications", `{"campaign":{"name":"x"},"customer":{"source_id":"x"}}`, app)
	add("POST", "/v1/vouchers/x/redemption", `{"order":{"amount":1000}}`, app)
	add("POST", "/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"g"}],"order":{"amount":500}}`, app)
	add("POST", "/v1/segments", `{"name":"x","type":"static","customers":["x"]}`, app)
	add("POST", "/v1/validation-rules", `{"name":"x","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1]}},"logic":"1"}}`, app)
	add("POST", "/v1/categories", `{"name":"x","hierarchy":1}`, app)
	add("POST", "/v1/products", `{"source_id":"x","name":"x"}`, app)
	add("POST", "/v1/products/x/skus", `{"source_id":"x"}`, app)
	add("POST", "/v1/campaigns", `{"name":"promo","campaign_type":"PROMOTION","promotion":{"tiers":[{"name":"x","action":{"discount":{"type":"AMOUNT","amount_off":100}}}]}}`, app)
	add("POST", "/v1/promotions/promo/tiers", `{"name":"y","action":{"discount":{"type":"PERCENT","percent_off":10}}}`, app)
	add("POST", "/v1/promotions/promo/stacks", `{"name":"s","tiers":{"ids":["`+ids[len(ids)-1]+`"]}}`, app)
	add("POST", "/v1/templates/campaigns", `{"name":"x","campaign_id":"x"}`, app)
	add("POST", "/management/v1/projects/"+e.Project.ProjectID+"/webhooks",
		`{"target_url":"http://127.0.0.1:1/h","events":["voucher.published"]}`, mk)
	return ids
}

package rest_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// outOfRange are the literals no field can hold (issue 34): beyond
// float64, and integers past int64.
var outOfRange = []string{"1e400", "-1e400", "9223372036854775808", "18446744073709551616"}

// numberSweepBase is a body most write routes would accept; %s marks the
// places a sweep value goes.
func numberSweepBodies(v string) map[string]string {
	base := func(meta, orderMeta, itemMeta, custMeta string) string {
		return `{"name":"numsweep","source_id":"numsweep","code":"NUMSWEEP","type":"DISCOUNT_VOUCHER",` +
			`"discount":{"type":"AMOUNT","amount_off":100},"customer":{"source_id":"x","metadata":` + custMeta + `},` +
			`"order":{"amount":1000,"metadata":` + orderMeta + `,"items":[{"product_id":"p1","quantity":1,"price":1000,"metadata":` + itemMeta + `}]},` +
			`"redeemables":[{"object":"voucher","id":"g"}],"event":"numsweep","metadata":` + meta + `}`
	}
	k := `{"k":` + v + `}`
	return map[string]string{
		"metadata":          base(k, "{}", "{}", "{}"),
		"nested metadata":   base(`{"a":{"b":[1,{"c":`+v+`}]}}`, "{}", "{}", "{}"),
		"order metadata":    base("{}", k, "{}", "{}"),
		"item metadata":     base("{}", "{}", k, "{}"),
		"customer metadata": base("{}", "{}", "{}", k),
		"every numeric field": strings.NewReplacer("V", v).Replace(`{"name":"numsweep","source_id":"numsweep","amount":V,"points":V,` +
			`"quantity":V,"limit":V,"hierarchy":V,"vouchers_count":V,"session_ttl":V,"ttl":V,"initial_amount":V,"credits":V,` +
			`"order":{"amount":V,"discount_amount":V,"items":[{"quantity":V,"price":V,"amount":V}]},"gift":{"amount":V},` +
			`"discount":{"type":"AMOUNT","amount_off":V,"percent_off":V,"amount_limit":V,"unit_off":V},` +
			`"loyalty_card":{"points":V},"session":{"type":"LOCK","ttl":V},"redeemables":[{"object":"voucher","id":"g","gift":{"credits":V},"reward":{"points":V}}]}`),
	}
}

// nanLike are strings a careless client sends for numbers.
var nanLike = `{"name":"numsweep","amount":"NaN","points":"Infinity","quantity":"-Infinity","limit":"1e400",` +
	`"order":{"amount":"NaN","items":[{"quantity":"Infinity","price":"-1e400"}]},"gift":{"amount":"NaN"},` +
	`"discount":{"type":"AMOUNT","amount_off":"Infinity","percent_off":"NaN"},"metadata":{"k":"NaN","i":"Infinity"}}`

// bodylessWrites are the write routes that read no body: they answer as
// they would to any body, and store nothing from it.
var bodylessWrites = map[string]bool{
	"POST /v1/campaigns/:campaignId/enable": true, "POST /v1/campaigns/:campaignId/disable": true,
	"POST /v1/vouchers/:code/enable": true, "POST /v1/vouchers/:code/disable": true,
	"POST /v1/promotions/tiers/:promotionTierId/enable": true, "POST /v1/promotions/tiers/:promotionTierId/disable": true,
}

// TestEveryWriteRouteRefusesNumbersOutOfRange is issue 34's sweep: every
// POST, PUT and PATCH route gets 1e400, -1e400, 2^63 and 2^64 in metadata
// (top level and nested), order, item and customer metadata and in every
// numeric field, and NaN-like strings in numeric fields: every answer is a
// 4xx with the error object (a route that reads no body answers as it
// would anyway), and afterwards every list and object stays readable.
func TestEveryWriteRouteRefusesNumbersOutOfRange(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.RateLimit, o.ClientRateLimit = -1, -1 })
	e.SkipContract = true
	app := resttest.App(e.Project)
	mk := e.NewManagementKey()
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}, "client_redeem_enabled": true,
		"client_publish_enabled": true, "client_list_vouchers_enabled": true, "client_create_customer_enabled": true})
	client := resttest.Client(e.Project, shopOrigin)
	ls := newLoyaltySetup(t, e)
	ids := sweepFixtures(t, e, app, mk)
	ids = append(ids, e.Project.ProjectID, ls.Program, ls.CardDef, ls.Member, ls.Card, ls.Cust)

	headers := func(tmpl string) resttest.Headers { return credentialsFor(tmpl, app, mk, client, ls.H) }
	params := regexp.MustCompile(`[:*][A-Za-z0-9_]+`)
	// pathFor is the route with the first identifier that finds something.
	pathFor := func(method, tmpl string) string {
		if !params.MatchString(tmpl) {
			return tmpl
		}
		for _, id := range ids {
			path := params.ReplaceAllString(tmpl, id)
			if e.Do(method, path, nil, headers(tmpl)).Status != http.StatusNotFound {
				return path
			}
		}
		return params.ReplaceAllString(tmpl, ids[0])
	}
	failures := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if failures++; failures <= 30 {
			t.Errorf(format, args...)
		}
	}

	routes := e.Routes()
	sort.SliceStable(routes, func(i, j int) bool { // the management API last
		return !strings.HasPrefix(routes[i][1], "/management/") && strings.HasPrefix(routes[j][1], "/management/")
	})
	var bodyless []string
	for _, r := range routes {
		method, tmpl := r[0], r[1]
		if method != http.MethodPost && method != http.MethodPut && method != http.MethodPatch ||
			strings.HasSuffix(tmpl, "/regenerate") {
			continue
		}
		path, h, graphQL := pathFor(method, tmpl), headers(tmpl), strings.HasSuffix(tmpl, "/graphql")
		for _, v := range outOfRange {
			for where, body := range numberSweepBodies(v) {
				resp := e.Do(method, path, []byte(body), h)
				if resp.Status < 400 {
					if !bodylessWrites[method+" "+tmpl] {
						if !slices.Contains(bodyless, method+" "+tmpl) {
							bodyless = append(bodyless, method+" "+tmpl)
						}
						fail("%s %s with %s in %s: %d %.200s", method, path, v, where, resp.Status, resp.Body)
					}
					continue
				}
				if problem := sweepProblem(resp, graphQL); problem != "" {
					fail("%s %s with %s in %s: %s: %d %.300s", method, path, v, where, problem, resp.Status, resp.Body)
				}
			}
		}
		if resp := e.Do(method, path, []byte(nanLike), h); resp.Status >= 400 {
			if problem := sweepProblem(resp, graphQL); problem != "" {
				fail("%s %s with NaN-like strings: %s: %d %.300s", method, path, problem, resp.Status, resp.Body)
			}
		} else if resp.Status >= 500 {
			fail("%s %s with NaN-like strings: %d", method, path, resp.Status)
		}
	}
	if failures > 30 {
		t.Errorf("%d failures in all; routes that took a body with a number out of range: %v", failures, bodyless)
	}

	// Everything stays readable: every GET route answers without a 5xx,
	// and the lists and objects the issue names answer 200.
	for _, r := range routes {
		if r[0] != http.MethodGet || strings.HasSuffix(r[1], "/graphql") {
			continue
		}
		path := pathFor(r[0], r[1])
		if resp := e.Do(r[0], path, nil, headers(r[1])); resp.Status >= 500 {
			fail("after the sweep GET %s: %d %.300s", path, resp.Status, resp.Body)
		}
	}
	redemption := must(t, e.Do("GET", "/v1/redemptions?limit=1", nil, app), http.StatusOK)["redemptions"].([]any)[0].(map[string]any)["id"]
	customer := must(t, e.Do("GET", "/v1/customers?limit=1", nil, app), http.StatusOK)["customers"].([]any)[0].(map[string]any)["id"]
	member := "/v2/loyalties/programs/" + ls.Program + "/members/" + ls.Member
	for _, path := range []string{"/v1/redemptions", "/v1/publications", "/v1/campaigns", "/v1/vouchers", "/v1/customers",
		"/v1/validation-rules", "/v1/segments", "/v1/categories", "/v1/metadata-schemas", "/v1/async-actions",
		"/v1/campaigns/x", "/v1/campaigns/x/transactions", "/v1/vouchers/x", "/v1/vouchers/g", "/v1/vouchers/g/redemption",
		"/v1/vouchers/x/publications", fmt.Sprint("/v1/customers/", customer), fmt.Sprint("/v1/customers/", customer, "/activities"),
		fmt.Sprint("/v1/redemptions/", redemption), "/v2/loyalties/programs", member, member + "/cards/" + ls.Card + "/activities",
		member + "/cards/" + ls.Card + "/transactions"} {
		h := app
		if strings.HasPrefix(path, "/v2/") {
			h = ls.H
		}
		if resp := e.Do("GET", path, nil, h); resp.Status != http.StatusOK {
			fail("after the sweep GET %s: %d %.300s", path, resp.Status, resp.Body)
		}
	}
}

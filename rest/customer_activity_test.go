package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// GET /v1/customers/{id}/activity is the current form of the activities
// list: type and category filters, data.data with data.event_source, and a
// more_starting_after cursor instead of a total.
func TestCustomerActivityFiltersByTypeAndCategory(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	defineEvent(t, e, app, "logged_in", map[string]any{})
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "cat"}, app), http.StatusOK)
	waitABit()
	discountCode(t, e, app, "Typed", "TYP-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"voucher": "TYP-1",
		"customer": map[string]any{"source_id": "cat"}}, app), http.StatusOK)
	waitABit()
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "logged_in", "customer": map[string]any{"source_id": "cat"}}, app), http.StatusOK)
	waitABit()
	red := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/TYP-1/redemption", map[string]any{"customer": map[string]any{"source_id": "cat"},
		"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	waitABit()
	must(t, e.DoJSON(http.MethodPost, "/v1/redemptions/"+red["id"].(string)+"/rollback", map[string]any{}, app), http.StatusOK)

	all := must(t, e.Do(http.MethodGet, "/v1/customers/cat/activity", nil, app), http.StatusOK)
	if _, hasTotal := all["total"]; hasTotal || all["has_more"] != false || all["more_starting_after"] != nil ||
		activityTypes(all) != "customer.redemption.rollback.succeeded,customer.redemption.succeeded,customer.custom_event,"+
			"customer.publication.succeeded,customer.created" {
		t.Fatalf("activity = %v", all)
	}
	first := all["data"].([]any)[1].(map[string]any)
	data := first["data"].(map[string]any)
	if data["event_source"].(map[string]any)["channel"] != "API" ||
		data["data"].(map[string]any)["redemption"].(map[string]any)["id"] != red["id"] {
		t.Errorf("redemption activity = %v", first)
	}

	for query, want := range map[string]string{
		"type=customer.redemption.succeeded":          "customer.redemption.succeeded",
		"type=customer.redemption.rollback.succeeded": "customer.redemption.rollback.succeeded",
		"type=customer.publication.succeeded":         "customer.publication.succeeded",
		"type=customer.publication.failed":            "",
		"type=customer.custom_event":                  "customer.custom_event",
		"type=customer.segment.entered":               "",
		"category=EFFECT":                             "",
		"category=ACTION&type=customer.created":       "customer.created",
		"category=EFFECT&type=customer.created":       "",
	} {
		got := must(t, e.Do(http.MethodGet, "/v1/customers/cat/activity?"+query, nil, app), http.StatusOK)
		if activityTypes(got) != want {
			t.Errorf("%s: types = %q, want %q", query, activityTypes(got), want)
		}
	}

	// Pages by more_starting_after cover the ACTION list once, in order.
	var seen []string
	query := "/v1/customers/cat/activity?category=ACTION&limit=2"
	for next := query; ; {
		page := must(t, e.Do(http.MethodGet, next, nil, app), http.StatusOK)
		seen = append(seen, activityTypes(page))
		if page["has_more"] != true {
			break
		}
		next = query + "&starting_after_id=" + page["more_starting_after"].(string)
	}
	if got := strings.Join(seen, "|"); got != "customer.redemption.rollback.succeeded,customer.redemption.succeeded|"+
		"customer.custom_event,customer.publication.succeeded|customer.created" {
		t.Errorf("pages = %s", got)
	}

	for _, bad := range []string{"type=customer.nonsense", "category=SIDE_EFFECT"} {
		res := e.Do(http.MethodGet, "/v1/customers/cat/activity?"+bad, nil, app)
		if res.Status != http.StatusBadRequest || res.JSON(t)["key"] != "invalid_query_params" {
			t.Errorf("%s: %d %s", bad, res.Status, res.Body)
		}
	}
	if res := e.Do(http.MethodGet, "/v1/customers/nobody/activity", nil, app); res.Status != http.StatusNotFound {
		t.Errorf("unknown customer: %d %s", res.Status, res.Body)
	}

	// GraphQL takes the same filters.
	gql := e.GraphQL(app, `{ customerActivityList(idOrSourceID: "cat", input: {category: "ACTION", type: "customer.custom_event"}) { total data { type } } }`, nil)
	if len(gql.Errors) > 0 || mustJSON(gql.Data) != `{"customerActivityList":{"data":[{"type":"customer.custom_event"}],"total":1}}` {
		t.Errorf("customerActivityList = %s %+v", mustJSON(gql.Data), gql.Errors)
	}
}

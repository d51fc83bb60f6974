package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// consentGQL runs a GraphQL operation that must succeed and returns its data.
func consentGQL(t *testing.T, e *resttest.Env, h resttest.Headers, query string, vars map[string]any) map[string]any {
	t.Helper()
	r := e.GraphQL(h, query, vars)
	if len(r.Errors) > 0 || r.Data == nil {
		t.Fatalf("GraphQL %s: %d %+v", query, r.Status, r.Errors)
	}
	return r.Data
}

// gqlErrorCode runs a GraphQL operation that must fail and returns the
// first error's extensions.code.
func gqlErrorCode(t *testing.T, e *resttest.Env, h resttest.Headers, query string, vars map[string]any) string {
	t.Helper()
	r := e.GraphQL(h, query, vars)
	if len(r.Errors) == 0 {
		t.Fatalf("GraphQL %s succeeded: %v", query, r.Data)
	}
	return fmt.Sprint(r.Errors[0].Extensions["key"])
}

const (
	createConsentQ = `mutation($i: ConsentInput!) { createConsent(input: $i) { id name description category createdAt } }`
	createGroupQ   = `mutation($i: ConsentGroupInput!) { createConsentGroup(input: $i) { id consents } }`
	customerConsQ  = `query($c: String!) { customer(idOrSourceID: $c) { consents { id } } }`
)

// customerConsentIDs are the ids of the consents the customer has given (GraphQL).
func customerConsentIDs(t *testing.T, e *resttest.Env, h resttest.Headers, customer string) string {
	t.Helper()
	var ids []string
	for _, c := range consentGQL(t, e, h, customerConsQ, map[string]any{"c": customer})["customer"].(map[string]any)["consents"].([]any) {
		ids = append(ids, c.(map[string]any)["id"].(string))
	}
	return strings.Join(ids, ",")
}

func TestLegacyConsentsListAndCustomerChanges(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	news := consentGQL(t, e, app, createConsentQ, map[string]any{"i": map[string]any{"name": "Newsletter", "description": "Weekly", "category": "marketing"}})["createConsent"].(map[string]any)
	sms := consentGQL(t, e, app, createConsentQ, map[string]any{"i": map[string]any{"name": "SMS"}})["createConsent"].(map[string]any)
	newsID, smsID := news["id"].(string), sms["id"].(string)
	if !strings.HasPrefix(newsID, "cnst_") || sms["description"] != "" || sms["category"] != "" {
		t.Fatalf("consents %v %v", news, sms)
	}
	if key := gqlErrorCode(t, e, app, createConsentQ, map[string]any{"i": map[string]any{"description": "no name"}}); key != "invalid_payload" {
		t.Errorf("consent without a name: %s", key)
	}
	if key := gqlErrorCode(t, e, app, createGroupQ, map[string]any{"i": map[string]any{"name": "G", "consents": []string{"cnst_nope"}}}); key != "not_found" {
		t.Errorf("group with an unknown consent: %s", key)
	}
	group := consentGQL(t, e, app, createGroupQ, map[string]any{"i": map[string]any{"name": "Marketing", "consents": []string{newsID, smsID}}})["createConsentGroup"].(map[string]any)

	list := must(t, e.Do(http.MethodGet, "/v1/consents", nil, app), http.StatusOK)
	groups, consents := list["groups"].(map[string]any), list["consents"].(map[string]any)
	if groups["object"] != "list" || groups["data_ref"] != "data" || groups["total"] != float64(1) || consents["total"] != float64(2) {
		t.Fatalf("list %s", mustJSON(list))
	}
	g := groups["data"].([]any)[0].(map[string]any)
	c := consents["data"].([]any)[0].(map[string]any)
	if g["id"] != group["id"] || g["object"] != "consent_group" || mustJSON(g["consents"]) != mustJSON([]string{newsID, smsID}) ||
		c["id"] != newsID || c["object"] != "consent" || c["name"] != "Newsletter" || c["description"] != "Weekly" ||
		c["category"] != "marketing" || c["created_at"] == nil {
		t.Errorf("list items %s", mustJSON(list))
	}
	if _, has := c["updated_at"]; has {
		t.Errorf("a consent never updated shows updated_at: %v", c)
	}

	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "alice"}, app), http.StatusOK)
	put := func(body string, h resttest.Headers) resttest.Response {
		return e.Do(http.MethodPut, "/v1/customers/alice/consents", []byte(body), h)
	}
	ok := func(r resttest.Response) {
		t.Helper()
		if r.Status != http.StatusOK || len(r.Body) != 0 {
			t.Fatalf("PUT consents: %d %q", r.Status, r.Body)
		}
	}
	if r := put(`{"`+newsID+`": true, "`+smsID+`": true}`, app); r.Status != http.StatusOK || len(r.Body) != 0 {
		t.Fatalf("PUT consents: %d %q", r.Status, r.Body)
	}
	if got := customerConsentIDs(t, e, app, "alice"); got != newsID+","+smsID {
		t.Fatalf("granted %q", got)
	}
	// Bad input writes nothing.
	wantError(t, put(`{"`+newsID+`": "yes"}`, app), http.StatusBadRequest, "invalid_payload", newsID)
	wantError(t, put(`{"unsubscribed": 1}`, app), http.StatusBadRequest, "invalid_payload", "unsubscribed")
	if r := put(`[true]`, app); r.Status != http.StatusBadRequest {
		t.Errorf("a body that is not an object: %d %s", r.Status, r.Body)
	}
	wantNotFound(t, put(`{"`+newsID+`": false, "cnst_nope": true}`, app), "consent", "cnst_nope")
	wantNotFound(t, e.Do(http.MethodPut, "/v1/customers/nobody/consents", []byte(`{}`), app), "customer", "nobody")
	if got := customerConsentIDs(t, e, app, "alice"); got != newsID+","+smsID {
		t.Fatalf("granted after refused changes %q", got)
	}
	// Withdrawals; a repeated grant is no change.
	ok(put(`{"`+smsID+`": false, "`+newsID+`": true}`, app))
	if got := customerConsentIDs(t, e, app, "alice"); got != newsID {
		t.Fatalf("after withdrawing SMS %q", got)
	}
	ok(put(`{"unsubscribed": true}`, app))
	if got := customerConsentIDs(t, e, app, "alice"); got != "" {
		t.Fatalf("after unsubscribed %q", got)
	}
	acts := must(t, e.Do(http.MethodGet, "/v1/customers/alice/activities?limit=10", nil, app), http.StatusOK)["data"].([]any)
	var types []string
	for _, a := range acts {
		types = append(types, a.(map[string]any)["type"].(string))
	}
	if strings.Join(types, ",") != "customer.consents.revoked,customer.consents.revoked,customer.consents.given,customer.consents.given,customer.created" {
		t.Errorf("activities %v", types)
	}
	given := must(t, e.Do(http.MethodGet, "/v1/customers/alice/activities?type=customer.consents.given", nil, app), http.StatusOK)
	if given["total"] != float64(2) {
		t.Errorf("given activities %s", mustJSON(given))
	}

	// A deleted consent leaves its group and its customers.
	ok(put(`{"`+smsID+`": true}`, app))
	consentGQL(t, e, app, `mutation($id: ID!) { deleteConsent(id: $id) }`, map[string]any{"id": smsID})
	if got := customerConsentIDs(t, e, app, "alice"); got != "" {
		t.Errorf("a deleted consent is still granted: %q", got)
	}
	list = must(t, e.Do(http.MethodGet, "/v1/consents", nil, app), http.StatusOK)
	if mustJSON(list["groups"].(map[string]any)["data"].([]any)[0].(map[string]any)["consents"]) != mustJSON([]string{newsID}) {
		t.Errorf("group after the consent's delete %s", mustJSON(list))
	}
}

func TestLegacyConsentsStayInTheirProjectAndAreBounded(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	other := e.NewProject("Other")
	otherApp := resttest.App(other)
	mine := consentGQL(t, e, app, createConsentQ, map[string]any{"i": map[string]any{"name": "Mine"}})["createConsent"].(map[string]any)["id"].(string)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, otherApp), http.StatusOK)
	if l := must(t, e.Do(http.MethodGet, "/v1/consents", nil, otherApp), http.StatusOK); l["consents"].(map[string]any)["total"] != float64(0) {
		t.Errorf("other project lists %s", mustJSON(l))
	}
	wantNotFound(t, e.Do(http.MethodPut, "/v1/customers/bob/consents", []byte(`{"`+mine+`": true}`), otherApp), "consent", mine)
	if key := gqlErrorCode(t, e, otherApp, `mutation($id: ID!) { deleteConsent(id: $id) }`, map[string]any{"id": mine}); key != "not_found" {
		t.Errorf("other project deletes my consent: %s", key)
	}

	// The client-side forms: trusted origins only.
	mk := e.NewManagementKey()
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}})
	cl := resttest.Client(e.Project, shopOrigin)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "carol"}, app), http.StatusOK)
	if l := must(t, e.Do(http.MethodGet, "/client/v1/consents", nil, cl), http.StatusOK); l["consents"].(map[string]any)["total"] != float64(1) {
		t.Errorf("client list %s", mustJSON(l))
	}
	if r := e.Do(http.MethodPut, "/client/v1/customers/carol/consents", []byte(`{"`+mine+`": true}`), cl); r.Status != http.StatusOK || len(r.Body) != 0 {
		t.Fatalf("client PUT consents: %d %s", r.Status, r.Body)
	}
	if got := customerConsentIDs(t, e, app, "carol"); got != mine {
		t.Errorf("granted from the client %q", got)
	}
	foreign := resttest.Client(e.Project, "https://evil.example.net")
	wantError(t, e.Do(http.MethodGet, "/client/v1/consents", nil, foreign), http.StatusForbidden, "forbidden", "")
	wantError(t, e.Do(http.MethodPut, "/client/v1/customers/carol/consents", []byte(`{"unsubscribed": true}`), foreign), http.StatusForbidden, "forbidden", "")
	wantError(t, e.Do(http.MethodGet, "/client/v1/consents", nil, resttest.Bearer(e.Token(app, "client_validate"))), http.StatusForbidden, "forbidden", "client_consents")
	must(t, e.Do(http.MethodGet, "/client/v1/consents", nil, resttest.Bearer(e.Token(app, "client_consents"))), http.StatusOK)
	must(t, e.Do(http.MethodGet, "/v1/consents", nil, resttest.Bearer(e.Token(app, "consents"))), http.StatusOK)

	// At most 100 consents and 100 groups a project.
	for i := 1; i < 100; i++ {
		consentGQL(t, e, app, createConsentQ, map[string]any{"i": map[string]any{"name": fmt.Sprintf("C%d", i)}})
	}
	if key := gqlErrorCode(t, e, app, createConsentQ, map[string]any{"i": map[string]any{"name": "one too many"}}); key != "too_many_consents" {
		t.Errorf("the 101st consent: %s", key)
	}
	for i := 0; i < 100; i++ {
		consentGQL(t, e, app, createGroupQ, map[string]any{"i": map[string]any{"name": fmt.Sprintf("G%d", i)}})
	}
	if key := gqlErrorCode(t, e, app, createGroupQ, map[string]any{"i": map[string]any{"name": "one too many"}}); key != "too_many_consent_groups" {
		t.Errorf("the 101st group: %s", key)
	}
	l := must(t, e.Do(http.MethodGet, "/v1/consents", nil, app), http.StatusOK)
	if l["consents"].(map[string]any)["total"] != float64(100) || l["groups"].(map[string]any)["total"] != float64(100) {
		t.Errorf("list of the full project: %v consents, %v groups", l["consents"].(map[string]any)["total"], l["groups"].(map[string]any)["total"])
	}
}

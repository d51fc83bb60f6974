package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestValidityTimeframeNeedsStartDate: a validity_timeframe repeats from
// the start date, so one without start_date is 400 invalid_payload naming
// the property — over REST and GraphQL alike (graph/campaign/validity.go) — and
// nothing is stored; with a start date it is accepted and inherited by the
// campaign's vouchers.
func TestValidityTimeframeNeedsStartDate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	const want = "Property .validity_timeframe requires .start_date"
	for _, body := range []string{
		`{"name": "tf", "validity_timeframe": {"duration": "PT1H", "interval": "P1D"}}`,
		`{"name": "tf", "start_date": null, "validity_timeframe": {"duration": "PT1H", "interval": "P1D"}}`,
		`{"name": "tf", "expiration_date": "2030-01-01T00:00:00Z", "validity_timeframe": {"duration": "PT1H", "interval": "P1D"}}`,
	} {
		got := wantErrorKey(t, e.Do(http.MethodPost, "/v1/campaigns", []byte(body), app), http.StatusBadRequest, "invalid_payload")
		if d, _ := got["details"].(string); !strings.Contains(d, want) {
			t.Errorf("%s: details %q", body, d)
		}
	}
	r := e.GraphQL(app, `mutation { createCampaign(input: {name: "tf", validityTimeframe: {duration: "PT1H", interval: "P1D"}}) { id } }`, nil)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "invalid_payload" ||
		!strings.Contains(r.Errors[0].Extensions["details"].(string), want) {
		t.Errorf("graphql: %+v", r.Errors)
	}
	if n := e.DB.Client.Campaign.Query().CountX(systemCtx()); n != 0 {
		t.Fatalf("%d campaigns stored after refused requests", n)
	}
	must(t, e.Do(http.MethodPost, "/v1/campaigns", []byte(`{"name": "tf", "start_date": "2030-01-01T00:00:00Z",
		"validity_timeframe": {"duration": "PT1H", "interval": "P1D"}}`), app), http.StatusOK)
	v := must(t, e.Do(http.MethodPost, "/v1/campaigns/tf/vouchers", nil, app), http.StatusOK)
	if v["start_date"] != "2030-01-01T00:00:00.000Z" || mustJSON(v["validity_timeframe"]) != `{"duration":"PT1H","interval":"P1D"}` {
		t.Errorf("voucher = %v %v", v["start_date"], v["validity_timeframe"])
	}
}

package loyaltyv2_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2CardExpiringPoints: points earned with an expiry are listed as
// lcpeb_ buckets (soonest first, paged by a cursor; points added by hand
// never expire and are not listed); one expires now, once: the second call
// is 400 invalid_bucket_state and books nothing; bad paging is 400;
// another project's card and an unknown bucket are 404.
func TestV2CardExpiringPoints(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	s := resttest.NewLoyaltySetup(t, e)
	visit := resttest.DefineEvent(t, e, app, "visit", nil)
	for i, unit := range []string{"DAY", "MONTH"} {
		resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn " + unit, "status": "ACTIVE",
			"trigger": map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": visit["id"]}},
			"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 10 * (i + 1), "card_definition_id": s.CardDef,
				"points_expiration": map[string]any{"rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": unit}}}}}}}}}, s.H)
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "member-1"}}, app), http.StatusOK)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 5}, s.H)
	if b := v2CardBalance(t, e, s); b != 35 {
		t.Fatalf("balance %v, want 35", b)
	}

	list := s.CardPath() + "/expiring-points"
	first := resttest.MustOK(t, e, http.MethodGet, list+"?limit=1", nil, s.H)
	data := first["data"].([]any)
	if len(data) != 1 || first["cursor"] == nil {
		t.Fatalf("first page %s, want 1 bucket and a cursor", resttest.MustJSON(first))
	}
	soon := data[0].(map[string]any)
	if id, _ := soon["id"].(string); !strings.HasPrefix(id, "lcpeb_") || soon["points"].(map[string]any)["total"] != 10.0 ||
		soon["expiration_type"] != "ROLLING_EXPIRATION" || soon["status"] != "ACTIVE" || soon["customer_id"] != s.Cust {
		t.Errorf("soonest bucket %s, want the 10 points of the DAY rule", resttest.MustJSON(soon))
	}
	next := first["cursor"].(map[string]any)["next"].(string)
	second := resttest.MustOK(t, e, http.MethodGet, list+"?limit=1&cursor="+url.QueryEscape(next), nil, s.H)
	if d := second["data"].([]any); len(d) != 1 || d[0].(map[string]any)["points"].(map[string]any)["total"] != 20.0 || second["cursor"] != nil {
		t.Errorf("second page %s, want the 20 points and no cursor", resttest.MustJSON(second))
	}
	if d := resttest.MustOK(t, e, http.MethodGet, list+"?order=-expiration_date", nil, s.H)["data"].([]any); len(d) != 2 ||
		d[0].(map[string]any)["points"].(map[string]any)["total"] != 20.0 {
		t.Errorf("latest first %s", resttest.MustJSON(d))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, list+"?order=created_at", nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, list+"?limit=101", nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, list+"?cursor=lcrspeb_00", nil, s.H), http.StatusBadRequest, "invalid_or_expired_cursor")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, list, nil, resttest.V2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")

	expire := list + "/" + soon["id"].(string) + "/expire"
	resttest.WantErrorKey(t, e.Do(http.MethodPost, expire, nil, resttest.V2(t, e, e.NewProject("third"))), http.StatusNotFound, "not_found")
	got := resttest.MustOK(t, e, http.MethodPost, expire, nil, s.H)
	tx, _ := got["transaction"].(map[string]any)
	if got["status"] != "TRANSACTION_CREATED" || tx == nil || tx["type"] != string(cardtransaction.TypePOINTS_EXPIRED) ||
		tx["details"].(map[string]any)["points"].(map[string]any)["total"] != -10.0 {
		t.Fatalf("expiry %s", resttest.MustJSON(got))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodPost, expire, nil, s.H), http.StatusBadRequest, "invalid_bucket_state")
	resttest.WantErrorKey(t, e.Do(http.MethodPost, list+"/lcpeb_0123456789abcdef/expire", nil, s.H), http.StatusNotFound, "not_found")
	if b := v2CardBalance(t, e, s); b != 25 {
		t.Errorf("balance after one expiry %v, want 25", b)
	}
	if d := resttest.MustOK(t, e, http.MethodGet, list, nil, s.H)["data"].([]any); len(d) != 1 {
		t.Errorf("after the expiry %d buckets listed, want 1", len(d))
	}
	if n := e.DB.Client.CardTransaction.Query().Where(cardtransaction.TypeEQ(cardtransaction.TypePOINTS_EXPIRED)).CountX(resttest.SystemCtx()); n != 1 {
		t.Errorf("%d expiry transactions, want 1", n)
	}
}

// TestV2CardPendingPoints: a card whose definition has no pending period holds no pending points: the list
// is empty, activating or canceling any bucket is 404, and another
// project's card is 404.
func TestV2CardPendingPoints(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	list := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/pending-points?order=-date", nil, s.H)
	if d := list["data"].([]any); len(d) != 0 || list["cursor"] != nil {
		t.Errorf("pending points %s, want none", resttest.MustJSON(list))
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.CardPath()+"/pending-points?order=-created_at", nil, s.H), http.StatusBadRequest, "invalid_query_params")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.CardPath()+"/pending-points", nil, resttest.V2(t, e, e.NewProject("other"))), http.StatusNotFound, "not_found")
	for _, verb := range []string{"activate", "cancel"} {
		body := resttest.WantErrorKey(t, e.Do(http.MethodPost, s.CardPath()+"/pending-points/lcppb_0123456789abcdef/"+verb, nil, s.H), http.StatusNotFound, "not_found")
		if body["resource_type"] != "card_pending_points_bucket" {
			t.Errorf("%s: %s", verb, resttest.MustJSON(body))
		}
	}
}

package rest_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCustomerActivitiesOfSegmentsAndReferrals: segment entries and
// referral conversions show among a customer's activities with what they
// name, page by starting_after_id like the others, and a referral counts
// as an activity of its campaign.
func TestCustomerActivitiesOfSegmentsAndReferrals(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	defineEvent(t, e, app, "signed_up", map[string]any{})
	cmp := createCampaign(t, e, map[string]any{"name": "Refer a friend", "campaign_type": "REFERRAL_PROGRAM", "type": "STATIC",
		"referral_program": map[string]any{"conversion_event_type": "signed_up"},
		"voucher":          map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}})
	must(t, addVoucher(t, e, "Refer a friend", map[string]any{"code": "REF-ALICE"}), http.StatusOK)
	must(t, publish(t, e, "", map[string]any{"voucher": "REF-ALICE", "customer": map[string]any{"source_id": "alice"}}), http.StatusOK)
	alice := must(t, e.Do(http.MethodGet, "/v1/customers/alice", nil, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "signed_up",
		"customer": map[string]any{"source_id": "bob"}, "referral": map[string]any{"code": "REF-ALICE"}}, app), http.StatusOK)
	waitABit()
	seg := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "Chosen", "type": "static", "customers": []string{"bob"}}, app), http.StatusOK)

	all := must(t, e.Do(http.MethodGet, "/v1/customers/bob/activities", nil, app), http.StatusOK)
	types := strings.Split(activityTypes(all), ",")
	if all["total"] != float64(4) || types[0] != "customer.segment.entered" || !slices.Contains(types, "customer.referred") ||
		!slices.Contains(types, "customer.custom_event") || !slices.Contains(types, "customer.created") {
		t.Fatalf("activities = %v", mustJSON(all))
	}
	byType := map[string]map[string]any{}
	for _, a := range all["data"].([]any) {
		byType[a.(map[string]any)["type"].(string)] = a.(map[string]any)["data"].(map[string]any)
	}
	if s := byType["customer.segment.entered"]["segment"].(map[string]any); s["id"] != seg["id"] || s["name"] != "Chosen" {
		t.Errorf("segment entry = %v", s)
	}
	if r := byType["customer.referred"]["referral"].(map[string]any); r["campaign_id"] != cmp["id"] || r["referrer_id"] != alice["id"] {
		t.Errorf("referral = %v", r)
	}

	// Pages of 1 by starting_after_id (each source finds its own IDs) cover the list once, in order.
	var seen []string
	for next := "/v1/customers/bob/activities?limit=1"; ; {
		page := must(t, e.Do(http.MethodGet, next, nil, app), http.StatusOK)
		items := page["data"].([]any)
		for _, a := range items {
			seen = append(seen, a.(map[string]any)["type"].(string))
		}
		if page["has_more"] != true || len(seen) > 4 {
			break
		}
		next = "/v1/customers/bob/activities?limit=1&starting_after_id=" + items[len(items)-1].(map[string]any)["id"].(string)
	}
	if !slices.Equal(seen, types) {
		t.Errorf("paged = %v, want %v", seen, types)
	}
	byCampaign := must(t, e.Do(http.MethodGet, "/v1/customers/bob/activities?campaign_id="+cmp["id"].(string), nil, app), http.StatusOK)
	if byCampaign["total"] != float64(1) || activityTypes(byCampaign) != "customer.referred" {
		t.Errorf("campaign_id filter = %v", mustJSON(byCampaign))
	}
}

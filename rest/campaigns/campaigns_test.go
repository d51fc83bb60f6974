package campaigns_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCreateCampaignResponseShape(t *testing.T) {
	e := resttest.New(t)
	got := resttest.CreateCampaign(t, e, map[string]any{
		"name":        "Summer 10%",
		"description": "ten off",
		"voucher": map[string]any{
			"type":     "DISCOUNT_VOUCHER",
			"discount": map[string]any{"type": "PERCENT", "percent_off": 10},
		},
		"start_date":      "2030-01-01T00:00:00Z",
		"expiration_date": "2030-12-31T12:30:00.5+02:00",
		"metadata":        map[string]any{"region": "EU"},
		"category":        nil, // SDKs send null for unset optional fields
	})

	if id, _ := got["id"].(string); !regexp.MustCompile(`^camp_[0-9A-Za-z]{24}$`).MatchString(id) {
		t.Errorf("id = %q, want camp_ + 24 alphanumerics", id)
	}
	want := map[string]any{
		"name": "Summer 10%", "description": "ten off", "object": "campaign",
		"campaign_type": "DISCOUNT_COUPONS", "type": "AUTO_UPDATE",
		"auto_join": false, "join_once": false, "use_voucher_metadata_schema": true,
		"creation_status": "DONE", "vouchers_generation_status": "DONE",
		"protected": false, "category_id": nil, "category": nil, "vouchers_count": float64(0),
		"active": true, "updated_at": nil, "validity_timeframe": nil, "validity_day_of_week": nil,
		"validity_hours": nil, "activity_duration_after_publishing": nil,
		"start_date": "2030-01-01T00:00:00.000Z", "expiration_date": "2030-12-31T10:30:00.500Z",
	}
	for k, v := range want {
		if gv, ok := got[k]; !ok || gv != v {
			t.Errorf("%s = %#v (present %v), want %#v", k, gv, ok, v)
		}
	}
	if ts, _ := got["created_at"].(string); !resttest.TimestampRE.MatchString(ts) {
		t.Errorf("created_at = %q, want ISO 8601 UTC with milliseconds", ts)
	}
	if cats, ok := got["categories"].([]any); !ok || len(cats) != 0 {
		t.Errorf("categories = %#v, want []", got["categories"])
	}
	if md, _ := got["metadata"].(map[string]any); md["region"] != "EU" {
		t.Errorf("metadata = %#v", got["metadata"])
	}
	vra, _ := got["validation_rules_assignments"].(map[string]any)
	if vra["object"] != "list" || vra["data_ref"] != "data" || vra["total"] != float64(0) {
		t.Errorf("validation_rules_assignments = %#v", vra)
	}
	voucher, _ := got["voucher"].(map[string]any)
	cc, _ := voucher["code_config"].(map[string]any)
	if voucher["type"] != "DISCOUNT_VOUCHER" || voucher["is_referral_code"] != false ||
		cc["length"] != float64(8) || cc["pattern"] != "########" ||
		cc["charset"] != "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" {
		t.Errorf("voucher = %#v", voucher)
	}
	if red, _ := voucher["redemption"].(map[string]any); red == nil || red["quantity"] != nil {
		t.Errorf("voucher.redemption = %#v, want {quantity: null}", voucher["redemption"])
	}
	if d, _ := voucher["discount"].(map[string]any); d["type"] != "PERCENT" || d["percent_off"] != float64(10) {
		t.Errorf("voucher.discount = %#v", voucher["discount"])
	}
}

func TestCreateCampaignDefaultsAndJoinOnceRules(t *testing.T) {
	e := resttest.New(t)
	cases := []struct {
		name                 string
		body                 map[string]any
		wantKind, wantType   string
		wantJoinOnce, wantRC bool
	}{
		{"loyalty forces join_once", map[string]any{"campaign_type": "LOYALTY_PROGRAM", "join_once": false},
			"LOYALTY_PROGRAM", "AUTO_UPDATE", true, false},
		{"standalone forbids join_once", map[string]any{"campaign_type": "GIFT_VOUCHERS", "type": "STANDALONE", "join_once": true,
			"voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 5000}}},
			"GIFT_VOUCHERS", "STANDALONE", false, false},
		{"type inferred from voucher", map[string]any{"voucher": map[string]any{"type": "GIFT_VOUCHER"}},
			"GIFT_VOUCHERS", "AUTO_UPDATE", false, false},
		{"referral codes", map[string]any{"campaign_type": "REFERRAL_PROGRAM", "type": "STATIC", "join_once": true},
			"REFERRAL_PROGRAM", "STATIC", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.body["name"] = tc.name
			got := resttest.CreateCampaign(t, e, tc.body)
			voucher, _ := got["voucher"].(map[string]any)
			if got["campaign_type"] != tc.wantKind || got["type"] != tc.wantType ||
				got["join_once"] != tc.wantJoinOnce || voucher["is_referral_code"] != tc.wantRC {
				t.Errorf("got campaign_type=%v type=%v join_once=%v is_referral_code=%v",
					got["campaign_type"], got["type"], got["join_once"], voucher["is_referral_code"])
			}
		})
	}
	gift := resttest.CreateCampaign(t, e, map[string]any{"name": "gift balance", "voucher": map[string]any{
		"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 2500}}})
	g := gift["voucher"].(map[string]any)["gift"].(map[string]any)
	if g["amount"] != float64(2500) || g["balance"] != float64(2500) {
		t.Errorf("gift = %#v, want amount and balance 2500", g)
	}
}

func TestGetCampaignByIDOrName(t *testing.T) {
	e := resttest.New(t)
	created := resttest.CreateCampaign(t, e, map[string]any{"name": "Black Friday 50% / all"})
	id := created["id"].(string)

	for _, path := range []string{
		"/v1/campaigns/" + id,
		"/v1/campaigns/" + url.PathEscape("Black Friday 50% / all"),
		"/v1/campaigns/Black%20Friday%2050%25%20%2F%20all",
	} {
		resp := e.Do(http.MethodGet, path, nil, resttest.App(e.Project))
		if resp.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.Status, resp.Body)
		}
		if got := resp.JSON(t); got["id"] != id || got["name"] != "Black Friday 50% / all" {
			t.Errorf("GET %s = %v", path, got)
		}
	}
}

func TestGetCampaignNotFound(t *testing.T) {
	e := resttest.New(t)
	resp := e.Do(http.MethodGet, "/v1/campaigns/camp_missing", nil, resttest.App(e.Project))
	if resp.Status != http.StatusNotFound {
		t.Fatalf("status = %d", resp.Status)
	}
	got := resp.JSON(t)
	if got["code"] != float64(404) || got["key"] != "not_found" || got["message"] != "Resource not found" ||
		got["details"] != "Cannot find campaign with id camp_missing" ||
		got["resource_id"] != "camp_missing" || got["resource_type"] != "campaign" {
		t.Errorf("error = %v", got)
	}
	if rid := resp.Header.Get("X-Request-Id"); rid == "" || got["request_id"] != rid {
		t.Errorf("request_id = %v, header = %q", got["request_id"], rid)
	}
}

func TestCreateCampaignBadInput(t *testing.T) {
	e := resttest.New(t)
	cases := []struct {
		name, body, wantKey, wantDetails string
	}{
		{"malformed JSON", `{"name": "x",`, "invalid_json", "not valid JSON"},
		{"empty body", ``, "invalid_payload", "required property 'name'"},
		{"null body", `null`, "invalid_payload", "required property 'name'"},
		{"array body", `[1]`, "invalid_payload", "must be a JSON object"},
		{"wrong type", `{"name": 5}`, "invalid_payload", ".name must be a string"},
		{"nested wrong type", `{"name": "x", "voucher": {"code_config": {"length": "eight"}}}`, "invalid_payload", ".voucher.code_config.length must be an integer"},
		{"unknown campaign_type", `{"name": "x", "campaign_type": "FREEBIES"}`, "invalid_payload", ".campaign_type must be one of"},
		{"unknown type", `{"name": "x", "type": "DYNAMIC"}`, "invalid_payload", ".type must be one of"},
		{"unknown voucher type", `{"name": "x", "voucher": {"type": "COUPON"}}`, "invalid_payload", ".voucher.type must be one of"},
		{"voucher type mismatch", `{"name": "x", "campaign_type": "GIFT_VOUCHERS", "voucher": {"type": "DISCOUNT_VOUCHER"}}`, "invalid_payload", "does not match campaign_type"},
		{"unknown discount type", `{"name": "x", "voucher": {"type": "DISCOUNT_VOUCHER", "discount": {"type": "BOGO"}}}`, "invalid_payload", ".voucher.discount.type must be one of"},
		{"amount without amount_off", `{"name": "x", "voucher": {"type": "DISCOUNT_VOUCHER", "discount": {"type": "AMOUNT"}}}`, "invalid_payload", ".voucher.discount.amount_off is required"},
		{"percent over 100", `{"name": "x", "voucher": {"type": "DISCOUNT_VOUCHER", "discount": {"type": "PERCENT", "percent_off": 120}}}`, "invalid_payload", "percent_off must be between 0 and 100"},
		{"bad date", `{"name": "x", "start_date": "next tuesday"}`, "invalid_payload", ".start_date must be an ISO 8601 date-time"},
		{"expiration before start", `{"name": "x", "start_date": "2030-02-01T00:00:00Z", "expiration_date": "2030-01-01T00:00:00Z"}`, "invalid_payload", ".expiration_date must be later than .start_date"},
		{"timeframe without start", `{"name": "x", "validity_timeframe": {"duration": "PT1H", "interval": "P1D"}}`, "invalid_payload", ".validity_timeframe requires .start_date"},
		{"bad timeframe duration", `{"name": "x", "start_date": "2030-01-01T00:00:00Z", "validity_timeframe": {"duration": "1 hour", "interval": "P1D"}}`, "invalid_payload", ".validity_timeframe.duration must be an ISO 8601 duration"},
		{"day of week 7", `{"name": "x", "validity_day_of_week": [1, 7]}`, "invalid_payload", ".validity_day_of_week[1] must be between 0"},
		{"bad hours", `{"name": "x", "validity_hours": {"daily": [{"start_time": "25:00", "expiration_time": "10:00", "days_of_week": [1]}]}}`, "invalid_payload", ".validity_hours.daily[0].start_time must be a HH:MM time"},
		{"pattern without placeholder", `{"name": "x", "voucher": {"type": "DISCOUNT_VOUCHER", "discount": {"type": "AMOUNT", "amount_off": 100}, "code_config": {"pattern": "ABC"}}}`, "invalid_payload", ".voucher.code_config.pattern must contain at least one #"},
		{"zero redemption quantity", `{"name": "x", "voucher": {"type": "DISCOUNT_VOUCHER", "redemption": {"quantity": 0}}}`, "invalid_payload", ".voucher.redemption.quantity must be at least 1"},
		{"standalone loyalty", `{"name": "x", "campaign_type": "LOYALTY_PROGRAM", "type": "STANDALONE"}`, "invalid_payload", "STANDALONE is only allowed"},
		{"bad activity duration", `{"name": "x", "activity_duration_after_publishing": "24 days"}`, "invalid_payload", ".activity_duration_after_publishing must be an ISO 8601 duration"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			resp := e.Do(http.MethodPost, "/v1/campaigns", body, resttest.App(e.Project))
			if resp.Status != http.StatusBadRequest {
				t.Fatalf("status = %d, body %s", resp.Status, resp.Body)
			}
			got := resp.JSON(t)
			details, _ := got["details"].(string)
			if got["code"] != float64(400) || got["key"] != tc.wantKey || !strings.Contains(details, tc.wantDetails) {
				t.Errorf("error = %v, want key %s with details containing %q", got, tc.wantKey, tc.wantDetails)
			}
			if got["request_id"] == "" || got["message"] == "" {
				t.Errorf("error lacks request_id or message: %v", got)
			}
		})
	}
	// Nothing was written by any of the failed requests.
	if n := e.DB.Client.Campaign.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d campaigns stored after failed requests", n)
	}
}

func TestCreateCampaignDuplicateName(t *testing.T) {
	e := resttest.New(t)
	resttest.CreateCampaign(t, e, map[string]any{"name": "dup"})
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "dup"}, resttest.App(e.Project))
	if resp.Status != http.StatusConflict || resp.JSON(t)["key"] != "duplicate_found" {
		t.Fatalf("second create: %d %s", resp.Status, resp.Body)
	}
	// Another project may use the same name.
	other := e.NewProject("B")
	if resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "dup"}, resttest.App(other)); resp.Status != http.StatusOK {
		t.Fatalf("same name in another project: %d %s", resp.Status, resp.Body)
	}
}

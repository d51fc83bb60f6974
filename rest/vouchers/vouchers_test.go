package vouchers_test

import (
	"bytes"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestAddVoucherWithExplicitCode(t *testing.T) {
	e := resttest.New(t)
	cmp := resttest.DiscountCampaign(t, e, "Spring sale", "####", "ABC", map[string]any{
		"start_date": "2030-01-01T00:00:00Z", "expiration_date": "2030-06-30T00:00:00Z", "category": "seasonal",
		"validity_day_of_week": []int{1, 2},
	})
	const code = "SPRING 50%/off"
	resp := resttest.AddVoucher(t, e, "Spring sale", map[string]any{
		"code": code, "metadata": map[string]any{"batch": "a"}, "additional_info": "printed",
		"redemption": map[string]any{"quantity": 1}, "expiration_date": "2030-03-31T00:00:00Z",
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("add voucher: %d %s", resp.Status, resp.Body)
	}
	v := resp.JSON(t)
	want := map[string]any{
		"code": code, "campaign": "Spring sale", "campaign_id": cmp["id"], "type": "DISCOUNT_VOUCHER",
		"category": "seasonal", "gift": nil, "loyalty_card": nil,
		"start_date": "2030-01-01T00:00:00.000Z", "expiration_date": "2030-03-31T00:00:00.000Z",
		"validity_timeframe": nil, "validity_hours": nil, "active": true, "additional_info": "printed",
		"is_referral_code": false, "updated_at": nil, "holder_id": nil, "referrer_id": nil, "object": "voucher",
	}
	for k, w := range want {
		if got, ok := v[k]; !ok || got != w {
			t.Errorf("%s = %#v (present %v), want %#v", k, got, ok, w)
		}
	}
	// The campaign's category (made from its name) is the voucher's too.
	if id, _ := v["category_id"].(string); id == "" || id != cmp["category_id"] {
		t.Errorf("category_id = %v, want the campaign's %v", v["category_id"], cmp["category_id"])
	}
	if !regexp.MustCompile(`^v_[0-9A-Za-z]{32}$`).MatchString(v["id"].(string)) || !resttest.TimestampRE.MatchString(v["created_at"].(string)) {
		t.Errorf("id/created_at = %v / %v", v["id"], v["created_at"])
	}
	if d := v["discount"].(map[string]any); d["type"] != "AMOUNT" || d["amount_off"] != float64(1500) {
		t.Errorf("discount = %v", d)
	}
	if dow := v["validity_day_of_week"].([]any); len(dow) != 2 {
		t.Errorf("validity_day_of_week = %v", dow)
	}
	if md := v["metadata"].(map[string]any); md["batch"] != "a" {
		t.Errorf("metadata = %v", md)
	}
	red := v["redemption"].(map[string]any)
	if red["quantity"] != float64(1) || red["redeemed_quantity"] != float64(0) || red["redeemed_points"] != float64(0) ||
		red["object"] != "list" || red["url"] != "/v1/vouchers/SPRING%2050%25%2Foff/redemptions?page=1&limit=10" {
		t.Errorf("redemption = %v", red)
	}
	pub := v["publish"].(map[string]any)
	if pub["object"] != "list" || pub["count"] != float64(0) || pub["url"] != "/v1/vouchers/SPRING%2050%25%2Foff/publications?page=1&limit=10" {
		t.Errorf("publish = %v", pub)
	}
	if cats := v["categories"].([]any); len(cats) != 1 || cats[0].(map[string]any)["id"] != v["category_id"] {
		t.Errorf("categories = %v, want the campaign's category", cats)
	}
	if vra := v["validation_rules_assignments"].(map[string]any); vra["object"] != "list" || vra["total"] != float64(0) {
		t.Errorf("validation_rules_assignments = %v", vra)
	}
	assets := v["assets"].(map[string]any)
	for _, kind := range []string{"qr", "barcode"} {
		a := assets[kind].(map[string]any)
		if a["id"] == "" || !strings.HasPrefix(a["url"].(string), e.Server.URL+"/v1/assets/"+kind+"/") {
			t.Errorf("assets.%s = %v", kind, a)
		}
	}

	// The code (URL-encoded once) and the ID both find it; the campaign counts it.
	for _, path := range []string{"/v1/vouchers/" + url.PathEscape(code), "/v1/vouchers/" + v["id"].(string)} {
		got := e.Do(http.MethodGet, path, nil, resttest.App(e.Project))
		if got.Status != http.StatusOK || got.JSON(t)["code"] != code {
			t.Errorf("GET %s: %d %s", path, got.Status, got.Body)
		}
	}
	if c := e.Do(http.MethodGet, "/v1/campaigns/Spring%20sale", nil, resttest.App(e.Project)).JSON(t); c["vouchers_count"] != float64(1) {
		t.Errorf("campaign vouchers_count = %v", c["vouchers_count"])
	}
}

func TestAddVoucherGeneratesFromCodeConfig(t *testing.T) {
	e := resttest.New(t)
	cmp := resttest.DiscountCampaign(t, e, "gen", "X-####", "0123456789", nil)
	resp := resttest.AddVoucher(t, e, cmp["id"].(string), nil) // SDKs send no body
	if resp.Status != http.StatusOK {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	v := resp.JSON(t)
	if !regexp.MustCompile(`^P-X-\d{4}$`).MatchString(v["code"].(string)) {
		t.Errorf("code %q does not follow the campaign's code_config", v["code"])
	}
	if v["redemption"].(map[string]any)["quantity"] != float64(3) {
		t.Errorf("redemption.quantity not inherited: %v", v["redemption"])
	}
	override := resttest.AddVoucher(t, e, "gen", map[string]any{"code_config": map[string]any{"pattern": "##-##", "charset": "ab", "postfix": "!"}})
	if code := override.JSON(t)["code"].(string); !regexp.MustCompile(`^[ab]{2}-[ab]{2}!$`).MatchString(code) {
		t.Errorf("body code_config not applied: %q", code)
	}
}

func TestAddVoucherErrors(t *testing.T) {
	e := resttest.New(t)
	resttest.DiscountCampaign(t, e, "errs", "####", "0123456789", nil)
	resttest.CreateCampaign(t, e, map[string]any{"name": "generic", "campaign_type": "DISCOUNT_COUPONS", "type": "STANDALONE"})
	if resp := resttest.AddVoucher(t, e, "errs", map[string]any{"code": "TAKEN"}); resp.Status != http.StatusOK {
		t.Fatal(resp.Status)
	}
	cases := []struct {
		name, campaign, query string
		body                  any
		status                int
		key, details          string
	}{
		{"duplicate code", "errs", "", map[string]any{"code": "TAKEN"}, 400, "duplicate_key", "already exist"},
		{"standalone", "generic", "", nil, 400, "invalid_campaign", "STANDALONE"},
		{"unknown campaign", "nope", "", nil, 404, "not_found", "Cannot find campaign with id nope"},
		{"code with count", "errs", "?vouchers_count=5", map[string]any{"code": "X"}, 400, "invalid_payload", ".code"},
		{"zero count", "errs", "?vouchers_count=0", nil, 400, "invalid_query_params", "vouchers_count"},
		{"text count", "errs", "?vouchers_count=many", nil, 400, "invalid_query_params", "vouchers_count"},
		{"control character", "errs", "", map[string]any{"code": "A\tB"}, 400, "invalid_payload", ".code must contain printable"},
		{"zero redemption", "errs", "", map[string]any{"redemption": map[string]any{"quantity": 0}}, 400, "invalid_payload", ".redemption.quantity"},
		{"bad date", "errs", "", map[string]any{"start_date": "tomorrow"}, 400, "invalid_payload", ".start_date"},
		{"bad pattern", "errs", "", map[string]any{"code_config": map[string]any{"pattern": "NOHASH"}}, 400, "invalid_payload", ".code_config.pattern"},
		{"space too small", "errs", "?vouchers_count=10", map[string]any{"code_config": map[string]any{"pattern": "#", "charset": "ab"}}, 400, "invalid_code_config", "allows 2 codes"},
		{"metadata not an object", "errs", "", map[string]any{"metadata": "x"}, 400, "invalid_payload", ".metadata must be an object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.DoJSON(http.MethodPost, "/v1/campaigns/"+tc.campaign+"/vouchers"+tc.query, tc.body, resttest.App(e.Project))
			got := resp.JSON(t)
			if resp.Status != tc.status || got["key"] != tc.key || !strings.Contains(got["details"].(string), tc.details) {
				t.Errorf("%d %v; want %d %s with %q", resp.Status, got, tc.status, tc.key, tc.details)
			}
		})
	}
	if n := e.DB.Client.Voucher.Query().CountX(resttest.SystemCtx()); n != 1 {
		t.Errorf("%d vouchers stored, want only TAKEN", n)
	}
	if c := e.Do(http.MethodGet, "/v1/campaigns/errs", nil, resttest.App(e.Project)).JSON(t); c["vouchers_count"] != float64(1) {
		t.Errorf("campaign vouchers_count = %v", c["vouchers_count"])
	}
}

func TestAssetsAreRealImages(t *testing.T) {
	e := resttest.New(t)
	resttest.DiscountCampaign(t, e, "img", "####", "0123456789", nil)
	v := resttest.AddVoucher(t, e, "img", map[string]any{"code": "SCAN-ME 42"}).JSON(t)
	for _, kind := range []string{"qr", "barcode"} {
		u := v["assets"].(map[string]any)[kind].(map[string]any)["url"].(string)
		resp, err := http.Get(u) // no credentials
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		resp.Body.Close()
		img, err := png.Decode(&buf)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" || err != nil {
			t.Fatalf("%s: %d %s %v", kind, resp.StatusCode, resp.Header.Get("Content-Type"), err)
		}
		if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 100 {
			t.Errorf("%s image is %v", kind, b)
		}
	}
	if resp := e.Do(http.MethodGet, "/v1/assets/qr/v_unknown", nil, nil); resp.Status != http.StatusNotFound {
		t.Errorf("unknown asset: %d", resp.Status)
	}
}

func TestVouchersAreIsolatedBetweenProjects(t *testing.T) {
	e := resttest.New(t)
	resttest.DiscountCampaign(t, e, "mine", "####", "0123456789", nil)
	v := resttest.AddVoucher(t, e, "mine", map[string]any{"code": "SHARED"}).JSON(t)
	other := e.NewProject("B")
	for _, path := range []string{"/v1/vouchers/SHARED", "/v1/vouchers/" + v["id"].(string), "/v1/campaigns/mine/vouchers"} {
		method := http.MethodGet
		if strings.HasSuffix(path, "/vouchers") {
			method = http.MethodPost
		}
		if resp := e.Do(method, path, nil, resttest.App(other)); resp.Status != http.StatusNotFound {
			t.Errorf("project B %s %s: %d", method, path, resp.Status)
		}
	}
	// Codes are unique per project, not globally.
	resttest.CreateCampaign(t, e, map[string]any{"name": "theirs"}) // in project A: used only to keep names apart
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "theirs"}, resttest.App(other))
	if resp.Status != http.StatusOK {
		t.Fatal(resp.Status)
	}
	resp = e.DoJSON(http.MethodPost, "/v1/campaigns/theirs/vouchers", map[string]any{"code": "SHARED"}, resttest.App(other))
	if resp.Status != http.StatusOK {
		t.Errorf("same code in project B: %d %s", resp.Status, resp.Body)
	}
	gql := e.GraphQL(resttest.App(other), `{ vouchers { totalCount } }`, nil)
	if gql.Data["vouchers"].(map[string]any)["totalCount"] != float64(1) {
		t.Errorf("project B sees %v vouchers", gql.Data["vouchers"])
	}
}

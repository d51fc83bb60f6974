package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestWebhookAssetLinksFollowPublicURL: with a PublicURL, the vouchers in
// webhook payloads link their assets exactly as the API shows them,
// absolute against that URL (without one they are relative, see
// TestEveryWebhookEventComesFromItsOperation).
func TestWebhookAssetLinksFollowPublicURL(t *testing.T) {
	const public = "https://promo.example.com"
	e := resttest.NewWithOptions(t, func(o *rest.Options) { o.PublicURL = public + "/" })
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	rcv := newReceiver(t)
	createHook(t, e, mk, rcv.srv.URL, "voucher.created")
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Promo", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Promo/vouchers", map[string]any{"code": "P-1"}, app), http.StatusOK)
	waitFor(t, "voucher.created delivered", func() bool { return len(rcv.delivered()) == 1 })

	got := rcv.delivered()[0].Data["voucher"].(map[string]any)["assets"]
	want := must(t, e.Do(http.MethodGet, "/v1/vouchers/P-1", nil, app), http.StatusOK)["assets"]
	if mustJSON(got) != mustJSON(want) {
		t.Errorf("webhook assets %s, API shows %s", mustJSON(got), mustJSON(want))
	}
	for _, kind := range []string{"qr", "barcode"} {
		if u, _ := got.(map[string]any)[kind].(map[string]any)["url"].(string); !strings.HasPrefix(u, public+"/v1/assets/") {
			t.Errorf("webhook %s url %q, want it under %s", kind, u, public)
		}
	}
}

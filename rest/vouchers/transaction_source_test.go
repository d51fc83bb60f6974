package vouchers_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// A voucher transaction records the channel the request came through: the
// channel the caller named in X-Voucherify-Channel (the SDKs send one),
// API otherwise.
func TestTransactionSourceIsTheRequestChannel(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.GiftCard(t, e, app, "Gift cards", "GIFT-S", 1000)
	sdk := resttest.Headers{"X-Voucherify-Channel": "Node.js-SDK"}
	for k, v := range app {
		sdk[k] = v
	}
	resttest.Must(t, resttest.VoucherBalance(t, e, app, "GIFT-S", map[string]any{"amount": 100, "source_id": "plain"}), http.StatusOK)
	resttest.Must(t, resttest.VoucherBalance(t, e, sdk, "GIFT-S", map[string]any{"amount": 200, "source_id": "sdk"}), http.StatusOK)

	list := resttest.Must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-S/transactions", nil, app), http.StatusOK)
	sources := map[any]any{}
	for _, item := range list["data"].([]any) {
		tx := item.(map[string]any)
		sources[tx["source_id"]] = tx["source"]
	}
	if sources["plain"] != "API" || sources["sdk"] != "Node.js-SDK" {
		t.Errorf("transaction sources by source_id = %v, want plain: API, sdk: Node.js-SDK", sources)
	}
}

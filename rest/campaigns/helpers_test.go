package campaigns_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// addVoucher adds a code to a campaign (POST /v1/campaigns/{campaign}/vouchers).
func addVoucher(t *testing.T, e *resttest.Env, campaign string, body any) resttest.Response {
	t.Helper()
	return e.DoJSON(http.MethodPost, "/v1/campaigns/"+url.PathEscape(campaign)+"/vouchers", body, resttest.App(e.Project))
}

package vouchers_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestAddVouchersCountRange: a vouchers_count outside 1..MaxVouchersPerRequest
// (checked by the generateVouchers use case, rest only parses) is refused
// with invalid_query_params and creates nothing.
func TestAddVouchersCountRange(t *testing.T) {
	e := resttest.New(t)
	resttest.DiscountCampaign(t, e, "range", "####", "0123456789", nil)
	for _, q := range []string{"0", "-3", fmt.Sprint(campaign.MaxVouchersPerRequest + 1), "2.5"} {
		t.Run(q, func(t *testing.T) {
			resp := e.Do(http.MethodPost, "/v1/campaigns/range/vouchers?vouchers_count="+q, nil, resttest.App(e.Project))
			resttest.WantError(t, resp, http.StatusBadRequest, "invalid_query_params", "vouchers_count")
			if msg := resp.JSON(t)["message"]; msg != "Invalid query params" {
				t.Errorf("message = %v", msg)
			}
		})
	}
	if n := e.DB.Client.Voucher.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d vouchers stored, want none", n)
	}
	if n := e.DB.Client.AsyncAction.Query().CountX(resttest.SystemCtx()); n != 0 {
		t.Errorf("%d async actions stored, want none", n)
	}
}

package vouchers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestGraphQLVouchers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp := resttest.DiscountCampaign(t, e, "graph", "####", "0123456789", nil)
	added := e.GraphQL(app, `mutation { addVoucher(campaign: "graph", input: {code: "GQL-1", metadata: {a: 1}}) {
		id code type active isReferralCode redemptionQuantity assets { qr { id url } barcode { url } }
		campaign { id name } } }`, nil)
	if len(added.Errors) > 0 {
		t.Fatal(added.Errors)
	}
	v := added.Data["addVoucher"].(map[string]any)
	if v["code"] != "GQL-1" || v["type"] != "DISCOUNT_VOUCHER" || v["redemptionQuantity"] != float64(3) ||
		v["campaign"].(map[string]any)["id"] != cmp["id"] ||
		!strings.HasPrefix(v["assets"].(map[string]any)["qr"].(map[string]any)["url"].(string), "/v1/assets/qr/") {
		t.Errorf("addVoucher = %v", v)
	}
	// REST sees what GraphQL made, and vice versa.
	if r := e.Do(http.MethodGet, "/v1/vouchers/GQL-1", nil, app); r.Status != http.StatusOK || r.JSON(t)["id"] != v["id"] {
		t.Errorf("REST GET: %d", r.Status)
	}
	job := e.GraphQL(app, `mutation { generateVouchers(campaign: "graph", count: 40) { id status total } }`, nil)
	if len(job.Errors) > 0 {
		t.Fatal(job.Errors)
	}
	jobID := job.Data["generateVouchers"].(map[string]any)["id"].(string)
	if final := e.WaitForJob(app, jobID); final["status"] != "DONE" {
		t.Fatalf("job = %v", final)
	}
	state := e.GraphQL(app, `query($id: ID!) { asyncAction(id: $id) { status done total progress result } node(id: $id) { id } }`,
		map[string]any{"id": jobID})
	if a := state.Data["asyncAction"].(map[string]any); a["status"] != "DONE" || a["done"] != float64(40) || a["progress"] != float64(100) {
		t.Errorf("asyncAction = %v", a)
	}

	// Connections: on the campaign and at the root, filtered and ordered.
	conn := e.GraphQL(app, `query($cid: String!, $campaignID: ID!) {
		campaign(idOrName: $cid) { vouchersCount vouchers(first: 5, orderBy: [{field: CODE, direction: ASC}]) { totalCount edges { node { code } } } }
		prefixed: vouchers(where: {codeHasPrefix: "GQL"}) { totalCount }
		inactive: vouchers(where: {active: false}) { totalCount }
		byCampaign: vouchers(where: {campaignID: $campaignID, type: DISCOUNT_VOUCHER}) { totalCount }
		unheld: vouchers(where: {holderIDIsNil: true}) { totalCount }
	}`, map[string]any{"cid": cmp["id"], "campaignID": cmp["id"]})
	if len(conn.Errors) > 0 {
		t.Fatal(conn.Errors)
	}
	c := conn.Data["campaign"].(map[string]any)
	vs := c["vouchers"].(map[string]any)
	if c["vouchersCount"] != float64(41) || vs["totalCount"] != float64(41) || len(vs["edges"].([]any)) != 5 {
		t.Errorf("campaign vouchers = %v", c)
	}
	counts := map[string]float64{"prefixed": 1, "inactive": 0, "byCampaign": 41, "unheld": 41}
	for k, want := range counts {
		if got := conn.Data[k].(map[string]any)["totalCount"]; got != want {
			t.Errorf("%s totalCount = %v, want %v", k, got, want)
		}
	}
	if big := e.GraphQL(app, `{ campaign(idOrName: "graph") { vouchers(first: 500) { totalCount } } }`, nil); len(big.Errors) == 0 {
		t.Error("campaign.vouchers(first: 500) was not refused")
	}
	byCode := e.GraphQL(app, `{ voucher(codeOrID: "GQL-1") { id } missing: voucher(codeOrID: "nope") { id } }`, nil)
	if len(byCode.Errors) != 1 || byCode.Errors[0].Extensions["key"] != "not_found" || byCode.Errors[0].Extensions["resource_type"] != "voucher" {
		t.Errorf("voucher lookups: %+v", byCode.Errors)
	}
	bad := e.GraphQL(app, `mutation { generateVouchers(campaign: "graph", count: 100000, input: {codeConfig: {pattern: "##", charset: "01"}}) { id } }`, nil)
	if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_code_config" {
		t.Errorf("impossible generation: %+v", bad.Errors)
	}
}

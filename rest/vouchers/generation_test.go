package vouchers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestBulkGenerationJob(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DiscountCampaign(t, e, "bulk", "####-####", "0123456789ABCDEF", nil)
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns/bulk/vouchers?vouchers_count=1234", map[string]any{"category": "bulk"}, app)
	if resp.Status != http.StatusAccepted {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	id, _ := resp.JSON(t)["async_action_id"].(string)
	if !regexp.MustCompile(`^aa_[0-9a-f]{18}$`).MatchString(id) {
		t.Fatalf("async_action_id = %q", id)
	}
	job := e.WaitForJob(app, id)
	if job["status"] != "DONE" || job["progress"] != float64(100) || job["object"] != "async_action" ||
		job["type"] != "CAMPAIGN.VOUCHERS_GENERATE" || job["result"] == nil || job["processing_time"] == nil {
		t.Errorf("job = %v", job)
	}
	cmp := e.Do(http.MethodGet, "/v1/campaigns/bulk", nil, app).JSON(t)
	if cmp["vouchers_count"] != float64(1234) || cmp["vouchers_generation_status"] != "DONE" {
		t.Errorf("campaign after job: count %v status %v", cmp["vouchers_count"], cmp["vouchers_generation_status"])
	}
	codes := e.DB.Client.Voucher.Query().Where(voucher.CampaignID(cmp["id"].(string))).Select(voucher.FieldCode).StringsX(resttest.SystemCtx())
	seen := map[string]bool{}
	re := regexp.MustCompile(`^P-[0-9A-F]{4}-[0-9A-F]{4}$`)
	for _, c := range codes {
		if seen[c] || !re.MatchString(c) {
			t.Fatalf("bad or duplicate code %q", c)
		}
		seen[c] = true
	}
	if len(codes) != 1234 {
		t.Errorf("%d vouchers stored", len(codes))
	}
	if n := e.DB.Client.Voucher.Query().Where(voucher.Category("bulk")).CountX(resttest.SystemCtx()); n != 1234 {
		t.Errorf("body category applied to %d vouchers", n)
	}
}

func TestGenerationFillsASmallSpaceExactly(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.DiscountCampaign(t, e, "tiny", "##", "0123456789", nil) // 100 codes: P-00 … P-99
	for _, code := range []string{"P-00", "P-42", "P-99"} {
		if r := resttest.AddVoucher(t, e, "tiny", map[string]any{"code": code}); r.Status != http.StatusOK {
			t.Fatal(r.Status)
		}
	}
	// 97 remain: asking for 98 fails up front, naming the numbers.
	resp := e.Do(http.MethodPost, "/v1/campaigns/tiny/vouchers?vouchers_count=98", nil, app)
	if got := resp.JSON(t); resp.Status != http.StatusBadRequest || got["key"] != "invalid_code_config" ||
		!strings.Contains(got["details"].(string), "allows 100 codes, 3 of which already exist") ||
		!strings.Contains(got["details"].(string), "at most 97") {
		t.Fatalf("98 of 97: %d %v", resp.Status, got)
	}
	resp = e.Do(http.MethodPost, "/v1/campaigns/tiny/vouchers?vouchers_count=97", nil, app)
	if resp.Status != http.StatusAccepted {
		t.Fatalf("97 of 97: %d %s", resp.Status, resp.Body)
	}
	if job := e.WaitForJob(app, resp.JSON(t)["async_action_id"].(string)); job["status"] != "DONE" {
		t.Fatalf("job = %v", job)
	}
	if c := e.Do(http.MethodGet, "/v1/campaigns/tiny", nil, app).JSON(t); c["vouchers_count"] != float64(100) {
		t.Errorf("vouchers_count = %v, want the whole space", c["vouchers_count"])
	}
	if r := e.Do(http.MethodPost, "/v1/campaigns/tiny/vouchers", nil, app); r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_code_config" {
		t.Errorf("add to a full space: %d %s", r.Status, r.Body)
	}
}

func TestCreateCampaignWithVouchersCount(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	created := resttest.DiscountCampaign(t, e, "initial", "######", "0123456789", map[string]any{"vouchers_count": 300})
	if created["creation_status"] != "IN_PROGRESS" || created["vouchers_generation_status"] != "IN_PROGRESS" {
		t.Errorf("statuses right after create: %v / %v", created["creation_status"], created["vouchers_generation_status"])
	}
	deadline := 500
	var cmp map[string]any
	for ; deadline > 0; deadline-- {
		cmp = e.Do(http.MethodGet, "/v1/campaigns/initial", nil, app).JSON(t)
		if cmp["creation_status"] == "DONE" {
			break
		}
		resttest.WaitABit()
	}
	if cmp["vouchers_count"] != float64(300) || cmp["vouchers_generation_status"] != "DONE" || cmp["creation_status"] != "DONE" {
		t.Errorf("campaign = count %v, %v, %v", cmp["vouchers_count"], cmp["creation_status"], cmp["vouchers_generation_status"])
	}
	standalone := resttest.CreateCampaign(t, e, map[string]any{"name": "one", "type": "STANDALONE", "vouchers_count": 1})
	if standalone["vouchers_count"] != float64(1) || standalone["creation_status"] != "DONE" {
		t.Errorf("standalone = %v", standalone)
	}
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "two", "type": "STANDALONE", "vouchers_count": 2}, app)
	if resp.Status != http.StatusBadRequest {
		t.Errorf("standalone with 2 vouchers: %d", resp.Status)
	}
}

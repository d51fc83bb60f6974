package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/rest/resttest"
)

// deleteCampaignToBin deletes a campaign without force, waits for its
// deletion job and returns its bin entry's id.
func deleteCampaignToBin(t *testing.T, e *resttest.Env, h resttest.Headers, name, id string) string {
	t.Helper()
	job := must(t, e.Do(http.MethodDelete, "/v1/campaigns/"+name, nil, h), http.StatusAccepted)
	if done := e.WaitForJob(h, job["async_action_id"].(string)); done["status"] != "DONE" {
		t.Fatalf("deletion job = %v", done)
	}
	return binEntryOf(t, e, h, id)["id"].(string)
}

// binRecords counts the stored vouchers of binned campaigns, every project.
func binRecords(t *testing.T, e *resttest.Env) int {
	t.Helper()
	ctx := viewer.NewSystemContext(ent.NewContext(context.Background(), e.DB.Client))
	n, err := e.DB.Client.BinRecord.Query().Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A campaign deleted without force comes back over REST and GraphQL with
// its settings, rule assignments and vouchers (same ids, codes, counters;
// published and redeemed ones too), enabled as before; its codes stay
// reserved while binned, and the restored codes validate and redeem.
func TestTrashBinRestoresCampaignWithVouchers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp := createCampaign(t, e, map[string]any{"name": "Spring", "type": "STATIC", "description": "kept",
		"metadata": map[string]any{"region": "EU"}, "expiration_date": "2031-01-02T03:04:05Z",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100},
			"redemption": map[string]any{"quantity": 5}}})
	codes := []string{"SPR-1", "SPR-2", "SPR-3"}
	for _, c := range codes {
		must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Spring/vouchers", map[string]any{"code": c}, app), http.StatusOK)
	}
	staticCampaign(t, e, "Other", "OTH-1")
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "Big carts",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{500}}}, "logic": "1"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules/"+rule["id"].(string)+"/assignments", map[string]any{"campaign": cmp["id"]}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": "Spring"},
		"customer": map[string]any{"source_id": "ann"}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/SPR-1/redemption", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	before := must(t, e.Do(http.MethodGet, "/v1/campaigns/Spring", nil, app), http.StatusOK)
	vouchersBefore := map[string]string{}
	for _, c := range codes {
		vouchersBefore[c] = mustJSON(must(t, e.Do(http.MethodGet, "/v1/vouchers/"+c, nil, app), http.StatusOK))
	}

	for round, transport := range []string{"REST", "GraphQL"} {
		id := deleteCampaignToBin(t, e, app, "Spring", cmp["id"].(string))
		wantError(t, e.Do(http.MethodGet, "/v1/campaigns/Spring", nil, app), http.StatusNotFound, "not_found", "")
		if n := binRecords(t, e); n != len(codes) {
			t.Fatalf("%s: %d vouchers kept in the bin, want %d", transport, n, len(codes))
		}
		// The vouchers' codes stay reserved while their campaign is binned.
		wantError(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Other/vouchers", map[string]any{"code": "SPR-2"}, app),
			http.StatusConflict, "duplicate_found", "bin")
		if round == 0 {
			got := must(t, restoreEntry(e, app, id), http.StatusOK)
			if got["id"] != id || got["resource_id"] != cmp["id"] || got["resource_type"] != "campaign" || got["async_action_id"] != nil {
				t.Errorf("restore answered %s", mustJSON(got))
			}
		} else {
			gql := e.GraphQL(app, `mutation { restoreBinEntry(id: "`+id+`") { id resourceID resourceType resourceName asyncActionID } }`, nil)
			if len(gql.Errors) > 0 || mustJSON(gql.Data["restoreBinEntry"]) != mustJSON(map[string]any{"id": id,
				"resourceID": cmp["id"], "resourceType": "campaign", "resourceName": "Spring", "asyncActionID": nil}) {
				t.Fatalf("restoreBinEntry = %+v", gql)
			}
		}
		if after := must(t, e.Do(http.MethodGet, "/v1/campaigns/Spring", nil, app), http.StatusOK); mustJSON(after) != mustJSON(before) {
			t.Errorf("%s: restored campaign\n%s\nwant\n%s", transport, mustJSON(after), mustJSON(before))
		}
		for _, c := range codes {
			if after := mustJSON(must(t, e.Do(http.MethodGet, "/v1/vouchers/"+c, nil, app), http.StatusOK)); after != vouchersBefore[c] {
				t.Errorf("%s: restored voucher\n%s\nwant\n%s", transport, after, vouchersBefore[c])
			}
		}
		if l := binList(t, e, app, ""); len(l["data"].([]any)) != 0 {
			t.Errorf("%s: bin after the restore = %s", transport, mustJSON(l))
		}
		if n := binRecords(t, e); n != 0 {
			t.Errorf("%s: %d records left after the restore", transport, n)
		}
		wantNotFound(t, restoreEntry(e, app, id), "bin_entry", id)
	}
	// The restored campaign works: its rule holds, its codes redeem.
	if v := e.DoJSON(http.MethodPost, "/v1/vouchers/SPR-3/validate", map[string]any{"order": map[string]any{"amount": 100}}, app).JSON(t); v["valid"] != false {
		t.Errorf("small cart against the restored campaign's rule = %s", mustJSON(v))
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/SPR-3/redemption", map[string]any{"order": map[string]any{"amount": 1000}}, app), http.StatusOK)
	if n := redeemedQuantity(t, e, app, "SPR-1"); n != 1 {
		t.Errorf("SPR-1 redeemed quantity after the restores = %d, want 1", n)
	}
}

// A campaign with more vouchers than a delete batch (500 in tests) and
// than a restore does at once: its restore answers 202 and a
// CAMPAIGN.RESTORE job brings every voucher back; the campaign is enabled
// when it is done. Deleting the entry (or its purge) drops the records.
func TestTrashBinRestoresLargeCampaignByJob(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	const count = bin.SyncRestoreLimit + 200
	created := discountCampaign(t, e, "Big", "######", "0123456789", map[string]any{"vouchers_count": count})
	for i := 0; ; i++ {
		cmp := e.Do(http.MethodGet, "/v1/campaigns/Big", nil, app).JSON(t)
		if cmp["creation_status"] == "DONE" && cmp["vouchers_count"] == float64(count) {
			break
		}
		if i > 1500 {
			t.Fatalf("generation did not finish: %v", cmp)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sample := e.Do(http.MethodGet, "/v1/vouchers?campaign=Big&limit=1", nil, app).JSON(t)["vouchers"].([]any)[0].(map[string]any)
	code := sample["code"].(string)
	id := deleteCampaignToBin(t, e, app, "Big", created["id"].(string))
	if n := binRecords(t, e); n != count {
		t.Fatalf("%d vouchers kept in the bin, want %d", n, count)
	}
	started := must(t, restoreEntry(e, app, id), http.StatusAccepted)
	jobID, _ := started["async_action_id"].(string)
	if started["id"] != id || jobID == "" {
		t.Fatalf("restore answered %s", mustJSON(started))
	}
	// While the job runs (or once done) the entry is not listed and
	// cannot be restored or deleted again.
	if r := restoreEntry(e, app, id); r.Status != http.StatusConflict && r.Status != http.StatusNotFound {
		t.Errorf("second restore: %d %s", r.Status, r.Body)
	}
	job := e.WaitForJob(app, jobID)
	if job["status"] != "DONE" || job["type"] != bin.JobCampaignRestore {
		t.Fatalf("restore job = %v", job)
	}
	cmp := must(t, e.Do(http.MethodGet, "/v1/campaigns/Big", nil, app), http.StatusOK)
	if cmp["vouchers_count"] != float64(count) || cmp["active"] != true {
		t.Errorf("restored campaign: count %v active %v", cmp["vouchers_count"], cmp["active"])
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/vouchers/"+code, nil, app), http.StatusOK); got["id"] != sample["id"] {
		t.Errorf("restored voucher %s = %s", code, mustJSON(got))
	}
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{"order": map[string]any{"amount": 5000}}, app), http.StatusOK)
	if n := binRecords(t, e); n != 0 {
		t.Errorf("%d records left after the restore job", n)
	}
	wantNotFound(t, restoreEntry(e, app, id), "bin_entry", id)
	// The job run again (a worker that lost its lease after the last
	// commit) restores nothing twice.
	ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID}), e.DB.Client)
	e.DB.Client.AsyncAction.UpdateOneID(jobID).SetStatus(asyncaction.StatusENQUEUED).SetDone(0).ClearClaimedBy().
		ClearLeaseUntil().ExecX(ctx)
	if again := e.WaitForJob(app, jobID); again["status"] != "DONE" {
		t.Fatalf("restore job run again = %v", again)
	}
	list := must(t, e.Do(http.MethodGet, "/v1/vouchers?campaign=Big&limit=1", nil, app), http.StatusOK)
	if cmp := must(t, e.Do(http.MethodGet, "/v1/campaigns/Big", nil, app), http.StatusOK); cmp["vouchers_count"] != float64(count) ||
		list["total"] != float64(count) {
		t.Errorf("after a second run: count %v, list total %v", cmp["vouchers_count"], list["total"])
	}

	// Deleting the entry for good drops its records.
	id = deleteCampaignToBin(t, e, app, "Big", created["id"].(string))
	if r := e.Do(http.MethodDelete, "/v1/trash-bin/"+id, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE bin entry: %d %s", r.Status, r.Body)
	}
	if n := binRecords(t, e); n != 0 {
		t.Errorf("%d records left after deleting the entry", n)
	}
	// The codes are free again.
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Again", "type": "STATIC"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/Again/vouchers", map[string]any{"code": code}, app), http.StatusOK)
}

// The purge of an expired campaign entry deletes its voucher records.
func TestTrashBinPurgeDropsCampaignRecords(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Old", "OLD-1", "OLD-2")
	cmp := must(t, e.Do(http.MethodGet, "/v1/campaigns/Old", nil, app), http.StatusOK)
	deleteCampaignToBin(t, e, app, "Old", cmp["id"].(string))
	if n := binRecords(t, e); n != 2 {
		t.Fatalf("%d records, want 2", n)
	}
	ctx := ent.NewContext(context.Background(), e.DB.Client)
	if n, err := bin.Purge(ctx, time.Now().Add(bin.Retention+time.Hour)); err != nil || n != 1 {
		t.Fatalf("purge = %d, %v", n, err)
	}
	if n := binRecords(t, e); n != 0 {
		t.Errorf("%d records left after the purge", n)
	}
}

// Conflicts write nothing: a code or the name taken past the API's checks
// is a 409 duplicate_found, an entry whose deletion job still runs a 409
// deletion_in_progress, an entry from before campaigns could be restored
// a 400 not_restorable; the entry stays and restores once the conflict is
// gone.
func TestTrashBinCampaignRestoreConflicts(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Dup", "DUP-1", "DUP-2")
	staticCampaign(t, e, "Host", "HOST-1")
	cmp := must(t, e.Do(http.MethodGet, "/v1/campaigns/Dup", nil, app), http.StatusOK)
	host := must(t, e.Do(http.MethodGet, "/v1/campaigns/Host", nil, app), http.StatusOK)
	id := deleteCampaignToBin(t, e, app, "Dup", cmp["id"].(string))
	ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID}), e.DB.Client)

	intruder := e.DB.Client.Voucher.Create().SetCode("DUP-2").SetType("DISCOUNT_VOUCHER").
		SetCampaignID(host["id"].(string)).SetMetadata(map[string]any{}).SaveX(ctx)
	wantError(t, restoreEntry(e, app, id), http.StatusConflict, "duplicate_found", "DUP-2")
	wantError(t, e.Do(http.MethodGet, "/v1/campaigns/Dup", nil, app), http.StatusNotFound, "not_found", "")
	binEntryOf(t, e, app, cmp["id"].(string))
	e.DB.Client.Voucher.DeleteOne(intruder).ExecX(ctx)

	other := e.DB.Client.Campaign.Create().SetName("Dup").SetCampaignType("DISCOUNT_COUPONS").SetType("STATIC").SaveX(ctx)
	wantError(t, restoreEntry(e, app, id), http.StatusConflict, "duplicate_found", "Dup")
	e.DB.Client.Campaign.DeleteOne(other).ExecX(ctx)

	e.DB.Client.BinEntry.UpdateOneID(id).SetState(binentry.StateDELETING).ExecX(ctx)
	wantErrorKey(t, restoreEntry(e, app, id), http.StatusConflict, "deletion_in_progress")
	e.DB.Client.BinEntry.UpdateOneID(id).SetState(binentry.StateBINNED).ExecX(ctx)

	legacy := e.DB.Client.BinEntry.Create().SetResourceType(binentry.ResourceTypeCampaign).SetResourceID("camp_legacy").
		SetResourceName("Legacy").SaveX(ctx)
	wantError(t, restoreEntry(e, app, legacy.ID), http.StatusBadRequest, "not_restorable", "before")

	must(t, restoreEntry(e, app, id), http.StatusOK)
	for _, c := range []string{"DUP-1", "DUP-2"} {
		must(t, e.Do(http.MethodGet, "/v1/vouchers/"+c, nil, app), http.StatusOK)
	}
}

// Two restores of one campaign entry at once: one restores, the other
// finds no entry or the entry taken; the campaign and its vouchers exist
// once.
func TestTrashBinConcurrentCampaignRestoresOneWins(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "Twice", "TW-1", "TW-2", "TW-3")
	cmp := must(t, e.Do(http.MethodGet, "/v1/campaigns/Twice", nil, app), http.StatusOK)
	id := deleteCampaignToBin(t, e, app, "Twice", cmp["id"].(string))
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() { statuses[i] = restoreEntry(e, app, id).Status })
	}
	wg.Wait()
	ok, lost := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusNotFound, http.StatusConflict:
			lost++
		}
	}
	if ok != 1 || lost != 1 {
		t.Fatalf("statuses of two restores = %v", statuses)
	}
	got := must(t, e.Do(http.MethodGet, "/v1/campaigns/Twice", nil, app), http.StatusOK)
	list := must(t, e.Do(http.MethodGet, "/v1/vouchers?campaign=Twice&limit=10", nil, app), http.StatusOK)
	if got["vouchers_count"] != float64(3) || fmt.Sprint(list["total"]) != "3" {
		t.Errorf("after two restores: count %v, list total %v", got["vouchers_count"], list["total"])
	}
}

// A promotion campaign comes back with its tiers (ids, counters, order)
// and the tiers redeem again.
func TestTrashBinRestoresPromotionTiers(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cmp, tiers := promotionCampaign(t, e, app, "Deals", amountTier("Ten off", 1000), amountTier("Twenty off", 2000))
	cid := cmp["id"].(string)
	redeemTier(t, e, app, tiers[0]["id"].(string), map[string]any{"amount": 5000}, "")
	before := mustJSON(must(t, e.Do(http.MethodGet, "/v1/campaigns/"+cid, nil, app), http.StatusOK))
	tiersBefore := mustJSON(must(t, e.Do(http.MethodGet, "/v1/promotions/"+cid+"/tiers", nil, app), http.StatusOK))
	id := deleteCampaignToBin(t, e, app, cid, cid)
	wantError(t, e.Do(http.MethodGet, "/v1/promotions/tiers/"+tiers[0]["id"].(string), nil, app), http.StatusNotFound, "not_found", "")
	must(t, restoreEntry(e, app, id), http.StatusOK)
	if after := mustJSON(must(t, e.Do(http.MethodGet, "/v1/campaigns/"+cid, nil, app), http.StatusOK)); after != before {
		t.Errorf("restored promotion\n%s\nwant\n%s", after, before)
	}
	if after := mustJSON(must(t, e.Do(http.MethodGet, "/v1/promotions/"+cid+"/tiers", nil, app), http.StatusOK)); after != tiersBefore {
		t.Errorf("restored tiers\n%s\nwant\n%s", after, tiersBefore)
	}
	red := must(t, e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{tierRedeemable(tiers[1]["id"].(string))},
		"order": map[string]any{"amount": 5000}}, app), http.StatusOK)
	if off := red["order"].(map[string]any)["total_discount_amount"]; off != float64(2000) {
		t.Errorf("restored tier's redemption: order %v", red["order"])
	}
}

// A loyalty program deleted without force comes back with its cards and
// their points (the points buckets keep the card's id), and the cards
// earn again; the program is join_once again for its members.
func TestTrashBinRestoresLoyaltyProgram(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := newV1Program(t, e, app, "Club", 100)["id"].(string)
	code := addV1Member(t, e, app, id, "alice")["code"].(string)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members/"+code+"/balance", map[string]any{"points": 40}, app)
	before := mustJSON(mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code, nil, app))
	job := must(t, e.Do(http.MethodDelete, "/v1/loyalties/"+id, nil, app), http.StatusOK)
	e.WaitForJob(app, job["async_action_id"].(string))
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/members/"+code, nil, app), 404, "not_found")
	must(t, restoreEntry(e, app, binEntryOf(t, e, app, id)["id"].(string)), http.StatusOK)
	if after := mustJSON(mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code, nil, app)); after != before {
		t.Errorf("restored card\n%s\nwant\n%s", after, before)
	}
	mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/members/"+code+"/balance", map[string]any{"points": 5}, app)
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(145) {
		t.Errorf("restored card after earning: %v", lc)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/members", map[string]any{"customer": map[string]any{"source_id": "alice"}}, app),
		400, "voucher_cannot_be_published")
}

package loyaltyv2_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV2MembersBatch: the batch answers 202 with an async action; the job
// enrols the good entries (by customer_id, customer_identification or
// source id) and reports each bad one (unknown customer, bad status,
// already a member, a repeat within the batch) without failing the rest.
// Bad requests and other projects' programs write nothing.
func TestV2MembersBatch(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	newCustomer := func(src string) string {
		return resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": src}, app)["id"].(string)
	}
	c1, c2 := newCustomer("batch-1"), newCustomer("batch-2")
	newCustomer("batch-3")
	path := "/v2/loyalties/programs/" + s.Program + "/members/batch"
	r := resttest.Must(t, e.DoJSON(http.MethodPost, path, []any{
		map[string]any{"customer_id": c1, "metadata": map[string]any{"tier": "a"}},
		map[string]any{"customer_identification": map[string]any{"type": "customer_id", "customer_id": c2}, "status": "INACTIVE"},
		map[string]any{"customer_identification": map[string]any{"type": "customer_source_id", "customer_source_id": "batch-3"}},
		map[string]any{"customer_id": c1},
		map[string]any{"customer_id": "cust_unknown"},
		map[string]any{"customer_id": newCustomer("batch-4"), "status": "DELETED"},
		map[string]any{"customer_id": s.Cust},
	}, s.H), http.StatusAccepted)
	aa := e.WaitForJob(app, r["async_action_id"].(string))
	res := aa["result"].(map[string]any)
	if aa["type"] != "LOYALTY.MEMBERS_BATCH_CREATE" || res["done_count"] != 3.0 || res["failed_count"] != 4.0 {
		t.Fatalf("batch job %s", resttest.MustJSON(aa))
	}
	failed := map[float64]bool{}
	for _, entry := range res["results"].([]any) {
		entry := entry.(map[string]any)
		if entry["status"] == "FAILED" {
			failed[entry["index"].(float64)] = true
		}
	}
	if len(failed) != 4 || !failed[3] || !failed[4] || !failed[5] || !failed[6] {
		t.Errorf("failed entries %v, want 3, 4, 5, 6: %s", failed, resttest.MustJSON(res["results"]))
	}
	members := e.DB.Client.LoyaltyMember.Query().Where(loyaltymember.ProgramID(s.Program)).AllX(resttest.SystemCtx())
	if len(members) != 4 {
		t.Errorf("%d members, want 4 (the first and 3 enrolled)", len(members))
	}
	for _, m := range members {
		if m.CustomerID == c2 && m.Status != loyaltymember.StatusINACTIVE {
			t.Errorf("member of %s is %s, want INACTIVE", c2, m.Status)
		}
	}

	before := e.DB.Client.AsyncAction.Query().CountX(resttest.SystemCtx())
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, []any{}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, map[string]any{"customer_id": c1}, s.H), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v2/loyalties/programs/lprg_unknown/members/batch", []any{map[string]any{"customer_id": c1}}, s.H),
		http.StatusNotFound, "not_found")
	other := resttest.V2(t, e, e.NewProject("other"))
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, path, []any{map[string]any{"customer_id": c1}}, other), http.StatusNotFound, "not_found")
	draft := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Draft", "status": "DRAFT",
		"card_definitions": []any{map[string]any{"id": s.CardDef}}}, s.H)["id"].(string)
	if r := e.DoJSON(http.MethodPost, "/v2/loyalties/programs/"+draft+"/members/batch", []any{map[string]any{"customer_id": c1}}, s.H); r.Status != http.StatusLocked {
		t.Errorf("batch into a DRAFT program: %d %s, want 423", r.Status, r.Body)
	}
	if after := e.DB.Client.AsyncAction.Query().CountX(resttest.SystemCtx()); after != before {
		t.Errorf("%d async actions after refused batches, want %d", after, before)
	}
}

// TestV2MembersBatchTwoWorkers: two batches of the same 150 customers run
// at once on two workers: every customer is enrolled exactly once and the
// other batch reports it as already a member.
func TestV2MembersBatchTwoWorkers(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	s := resttest.NewLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	var customers, entries []any
	for i := range 150 {
		customers = append(customers, map[string]any{"source_id": fmt.Sprintf("race-%d", i)})
		entries = append(entries, map[string]any{"customer_identification": map[string]any{"type": "customer_source_id",
			"customer_source_id": fmt.Sprintf("race-%d", i)}})
	}
	resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/customers/bulk/async", customers, app), http.StatusAccepted)
	if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("customers job: %v %v", worked, err)
	}
	path := "/v2/loyalties/programs/" + s.Program + "/members/batch"
	ids := []string{}
	for range 2 {
		ids = append(ids, resttest.Must(t, e.DoJSON(http.MethodPost, path, entries, s.H), http.StatusAccepted)["async_action_id"].(string))
	}
	resttest.RunOnceOnTwoWorkers(t, e)
	done, failed := 0.0, 0.0
	for _, id := range ids {
		res := resttest.Must(t, e.Do(http.MethodGet, "/v1/async-actions/"+id, nil, app), http.StatusOK)["result"].(map[string]any)
		done += res["done_count"].(float64)
		failed += res["failed_count"].(float64)
	}
	if done != 150 || failed != 150 {
		t.Errorf("done %v failed %v across both batches, want 150 and 150", done, failed)
	}
	if n := e.DB.Client.LoyaltyMember.Query().Where(loyaltymember.ProgramID(s.Program)).CountX(resttest.SystemCtx()); n != 151 {
		t.Errorf("%d members, want 151", n)
	}
}

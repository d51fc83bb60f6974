package loyaltyv1_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// DELETE /v1/loyalties/{id} honours force like campaign deletes: without
// it the program goes to the bin and its name stays taken.
func TestV1LoyaltyProgramDeleteHonoursForce(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	binned := resttest.NewV1Program(t, e, app, "Club binned", 0)["id"].(string)
	del := resttest.MustOK(t, e, http.MethodDelete, "/v1/loyalties/"+binned, nil, app)
	if job := e.WaitForJob(app, del["async_action_id"].(string)); job["status"] != "DONE" {
		t.Fatalf("delete job %v", job)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+binned, nil, app), http.StatusNotFound, "not_found")
	if entry := resttest.BinEntryOf(t, e, app, binned); entry["resource_type"] != "campaign" || entry["resource_name"] != "Club binned" {
		t.Errorf("bin entry %v", entry)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties", map[string]any{"name": "Club binned", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0}}}, app),
		http.StatusConflict, "duplicate_found")

	gone := resttest.NewV1Program(t, e, app, "Club gone", 0)["id"].(string)
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v1/loyalties/"+gone+"?force=maybe", nil, app), http.StatusBadRequest, "invalid_query_params")
	del = resttest.MustOK(t, e, http.MethodDelete, "/v1/loyalties/"+gone+"?force=true", nil, app)
	e.WaitForJob(app, del["async_action_id"].(string))
	if n := len(resttest.BinList(t, e, app, "?filters[resource_id][conditions][$is]="+gone)["data"].([]any)); n != 0 {
		t.Errorf("a forced delete left %d bin entries", n)
	}
	resttest.NewV1Program(t, e, app, "Club gone", 0) // the name is free at once
}

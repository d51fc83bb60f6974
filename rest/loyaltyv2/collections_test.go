package loyaltyv2_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

func TestLoyaltyLists(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	prod, _ := resttest.NewMaterial(t, e, resttest.App(e.Project))
	var made []string
	for i := range 5 {
		inc := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/incentives", map[string]any{
			"name": fmt.Sprintf("inc %d", i), "type": "MATERIAL", "stock": 1,
			"material": productMaterial(prod)}, s.H)
		made = append(made, inc["id"].(string))
	}
	ids := pageAll(t, e, s.H, "/v2/loyalties/incentives", mustQuery(t, "limit=2&order=created_at"), nil)
	slices.Sort(ids)
	slices.Sort(made)
	if fmt.Sprint(ids) != fmt.Sprint(made) {
		t.Errorf("incentives %v, want %v", ids, made)
	}
	newest := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/incentives?limit=1", nil, s.H)
	if d := newest["data"].([]any); len(d) != 1 || newest["cursor"] == nil {
		t.Errorf("newest first: %v", newest)
	}
	// A cursor of one list does not continue another.
	next := newest["cursor"].(map[string]any)["next"].(string)
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/rewards?cursor="+next, nil, s.H), 400, "invalid_or_expired_cursor")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/incentives?order=created_at&cursor="+next, nil, s.H), 400, "invalid_or_expired_cursor")
	for path, n := range map[string]int{
		"/v2/loyalties/programs":                           1,
		"/v2/loyalties/card-definitions":                   1,
		"/v2/loyalties/rewards":                            0,
		"/v2/loyalties/earning-rules":                      0,
		"/v2/loyalties/programs/" + s.Program + "/members": 1,
	} {
		got := resttest.MustOK(t, e, http.MethodGet, path, nil, s.H)
		if d := got["data"].([]any); len(d) != n || got["object"] != "list" || got["cursor"] != nil {
			t.Errorf("%s: %v", path, got)
		}
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/lprg_00/members", nil, s.H), 404, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/incentives?limit=500", nil, s.H), 400, "invalid_query_params")
	// Another project sees none of them.
	b := resttest.V2(t, e, e.NewProject("project B"))
	if got := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/incentives", nil, b); len(got["data"].([]any)) != 0 {
		t.Errorf("project B sees %v", got)
	}
}

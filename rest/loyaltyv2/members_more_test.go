package loyaltyv2_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// memberActivityList lists the types of a v2 activity list, in order.
func memberActivityList(t *testing.T, e *resttest.Env, path string, h resttest.Headers) []string {
	t.Helper()
	var out []string
	for _, a := range resttest.MustOK(t, e, http.MethodGet, path, nil, h)["data"].([]any) {
		out = append(out, a.(map[string]any)["type"].(string))
	}
	return out
}

// TestV2MemberDeleteKeepsCardsAndHistory: deleting a member answers it as
// it was (status DELETED, its card), the member is gone (404, not listed in
// its customer's memberships), the card stays in the program unassigned
// (member_id null) with its points, and the member's activities tell the whole story.
func TestV2MemberDeleteKeepsCardsAndHistory(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 40}, s.H)
	resttest.MustOK(t, e, http.MethodPost, s.MemberPath()+"/deactivate", nil, s.H)

	gone := resttest.MustOK(t, e, http.MethodDelete, s.MemberPath(), nil, s.H)
	cards := gone["cards"].([]any)
	if gone["status"] != "DELETED" || gone["id"] != s.Member || len(cards) != 1 ||
		resttest.MemberCardAt(t, gone, 0)["id"] != s.Card || resttest.MemberCardAt(t, gone, 0)["balance"].(map[string]any)["points"] != float64(40) || resttest.MemberCardAt(t, gone, 0)["member_id"] != nil {
		t.Fatalf("delete answered %v", gone)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.MemberPath(), nil, s.H), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, s.MemberPath(), nil, s.H), http.StatusNotFound, "not_found")
	if ms := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/memberships/"+s.Cust, nil, s.H)["memberships"].([]any); len(ms) != 0 {
		t.Errorf("memberships after the delete: %v", ms)
	}
	got := memberActivityList(t, e, s.MemberPath()+"/activities?order=created_at", s.H)
	want := []string{"vl.member.created", "vl.member.card.assigned", "vl.member.deactivated",
		"vl.member.card.unassigned", "vl.member.deleted"}
	if len(got) != len(want) {
		t.Fatalf("member activities %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("member activities %v, want %v", got, want)
		}
	}
	// The customer may join again: a new member with a new card.
	again := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/members", map[string]any{"customer_id": s.Cust}, s.H)
	if again["id"] == s.Member || resttest.MemberCardAt(t, again, 0)["balance"].(map[string]any)["points"] != float64(0) {
		t.Errorf("rejoined %v", again)
	}
}

// TestV2MemberActivitiesPageAndErrors: pages of member activities follow
// the cursor; an unknown member or program is 404 and a bad limit 400.
func TestV2MemberActivitiesPageAndErrors(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	resttest.MustOK(t, e, http.MethodPost, s.MemberPath()+"/deactivate", nil, s.H)
	resttest.MustOK(t, e, http.MethodPost, s.MemberPath()+"/activate", nil, s.H)
	first := resttest.MustOK(t, e, http.MethodGet, s.MemberPath()+"/activities?limit=2&order=created_at", nil, s.H)
	if len(first["data"].([]any)) != 2 || first["cursor"] == nil {
		t.Fatalf("first page %v", first)
	}
	next := resttest.MustOK(t, e, http.MethodGet, s.MemberPath()+"/activities?limit=2&order=created_at&cursor="+first["cursor"].(map[string]any)["next"].(string), nil, s.H)
	types := []string{}
	for _, a := range next["data"].([]any) {
		types = append(types, a.(map[string]any)["type"].(string))
	}
	if len(types) != 2 || types[0] != "vl.member.deactivated" || types[1] != "vl.member.activated" || next["cursor"] != nil {
		t.Errorf("second page %v", next)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/lmbr_00/activities", nil, s.H), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v2/loyalties/programs/lprg_00/members/"+s.Member+"/activities", nil, s.H), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.MemberPath()+"/activities?limit=0", nil, s.H), http.StatusBadRequest, "invalid_query_params")
}

// TestV2MemberDeleteTenancyAndGraphQL: another project's member is 404 on
// both routes and stays; the GraphQL fields run the same use cases.
func TestV2MemberDeleteTenancyAndGraphQL(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	b := resttest.V2(t, e, e.NewProject("project B"))
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, s.MemberPath(), nil, b), http.StatusNotFound, "not_found")
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.MemberPath()+"/activities", nil, b), http.StatusNotFound, "not_found")
	resttest.MustOK(t, e, http.MethodGet, s.MemberPath(), nil, s.H)

	app := resttest.App(e.Project)
	del := e.GraphQL(app, `mutation($p: ID!, $m: ID!) { deleteLoyaltyMember(programID: $p, memberID: $m) { id } }`,
		map[string]any{"p": s.Program, "m": s.Member})
	if len(del.Errors) > 0 || del.Data["deleteLoyaltyMember"].(map[string]any)["id"] != s.Member {
		t.Fatalf("deleteLoyaltyMember: %+v", del)
	}
	acts := e.GraphQL(app, `query($p: ID!, $m: ID!) { memberActivities(programID: $p, memberID: $m, page: {limit: 10, asc: true}) { data { type } hasMore } }`,
		map[string]any{"p": s.Program, "m": s.Member})
	if len(acts.Errors) > 0 {
		t.Fatalf("memberActivities: %+v", acts.Errors)
	}
	data := acts.Data["memberActivities"].(map[string]any)["data"].([]any)
	if len(data) == 0 || data[len(data)-1].(map[string]any)["type"] != "vl.member.deleted" {
		t.Errorf("memberActivities after the GraphQL delete: %v", data)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, s.MemberPath(), nil, s.H), http.StatusNotFound, "not_found")
}

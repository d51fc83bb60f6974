package loyaltyv2_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestV2NeedsBearerAndKeys(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	for name, h := range map[string]resttest.Headers{
		"keys only":   app,
		"bearer only": {"Authorization": s.H["Authorization"]},
		"nothing":     {},
	} {
		r := e.Do(http.MethodGet, s.CardPath()+"/activities", nil, h)
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
		r = e.Do(http.MethodPost, "/v2/loyalties/incentives", []byte(`{}`), h)
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s (incentives): %d %s", name, r.Status, r.Body)
		}
	}
}

func TestMemberCreationRecordsCardActivities(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	got := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/activities?order=created_at", nil, s.H)
	if got["object"] != "list" || got["cursor"] != nil {
		t.Fatalf("envelope: %v", got)
	}
	data := got["data"].([]any)
	var types []string
	group := ""
	for _, d := range data {
		a := d.(map[string]any)
		types = append(types, a["type"].(string))
		if group == "" {
			group, _ = a["group_id"].(string)
		}
		if a["group_id"] != group || group == "" {
			t.Errorf("group_id %v, want one shared id", a["group_id"])
		}
		src := a["source"].(map[string]any)
		key := src["api_key"].(map[string]any)
		if src["channel"] != "API" || key["app_id"] != e.Project.AppID {
			t.Errorf("source = %v", src)
		}
		if !strings.HasPrefix(a["id"].(string), "lacrd_") || !resttest.TimestampRE.MatchString(a["created_at"].(string)) {
			t.Errorf("activity shape: %v", a)
		}
	}
	want := "vl.card.created,vl.card.code_generation.succeeded,vl.card.assigned"
	if strings.Join(types, ",") != want {
		t.Errorf("types %v, want %s", types, want)
	}
	// The card's code follows the card definition's code configuration.
	m := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member, nil, s.H)
	code := resttest.MemberCardAt(t, m, 0)["code"].(string)
	if len(code) != len("GOLD-######") || !strings.HasPrefix(code, "GOLD-") {
		t.Errorf("card code %q", code)
	}
}

// TestActivitySourceShape: an activity caused with a server-side key names
// the channel and the key, with client_app_id present and null; REST and
// GraphQL show the same source.
func TestActivitySourceShape(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	want := `{"api_key":{"app_id":"` + e.Project.AppID + `","client_app_id":null,"name":"default"},"channel":"API"}`
	got := resttest.MustOK(t, e, http.MethodGet, s.CardPath()+"/activities", nil, s.H)
	for _, d := range got["data"].([]any) {
		if src := resttest.MustJSON(d.(map[string]any)["source"]); src != want {
			t.Errorf("card activity source = %s, want %s", src, want)
		}
	}
	rw := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Mug", "type": "MATERIAL",
		"material": resttest.V2ProductMaterial(t, e)}, s.H)
	acts := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/rewards/"+rw["id"].(string)+"/activities", nil, s.H)
	if data := acts["data"].([]any); len(data) == 0 || resttest.MustJSON(data[0].(map[string]any)["source"]) != want {
		t.Errorf("reward activities = %v", acts)
	}
	q := `query($p: ID!, $m: ID!, $c: ID!) { cardActivities(programID: $p, memberID: $m, cardID: $c, first: 1) { edges { node { source } } } }`
	r := e.GraphQL(resttest.App(e.Project), q, map[string]any{"p": s.Program, "m": s.Member, "c": s.Card})
	if len(r.Errors) > 0 {
		t.Fatalf("cardActivities: %v", r.Errors)
	}
	edges := r.Data["cardActivities"].(map[string]any)["edges"].([]any)
	if len(edges) != 1 || resttest.MustJSON(edges[0].(map[string]any)["node"].(map[string]any)["source"]) != want {
		t.Errorf("graphql source = %v", edges)
	}
}

func TestCardActivitiesNotFound(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	// A second member of the same program with its own card.
	cust := resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "member-2"}, resttest.App(e.Project))
	m2 := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/members", map[string]any{"customer_id": cust["id"]}, s.H)
	other := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Other"}, s.H)["id"].(string)
	base := "/v2/loyalties/programs/"
	for _, c := range []struct{ path, typ, id string }{
		{base + "lprg_00/members/" + s.Member + "/cards/" + s.Card + "/activities", "program", "lprg_00"},
		{base + s.Program + "/members/lmbr_00/cards/" + s.Card + "/activities", "member", "lmbr_00"},
		{base + s.Program + "/members/" + s.Member + "/cards/lcrd_00/activities", "card", "lcrd_00"},
		{base + other + "/members/" + s.Member + "/cards/" + s.Card + "/activities", "member", s.Member},
		{base + s.Program + "/members/" + m2["id"].(string) + "/cards/" + s.Card + "/activities", "card", s.Card},
		{"/v2/loyalties/rewards/lrew_00/activities", "reward", "lrew_00"},
	} {
		body := resttest.WantErrorKey(t, e.Do(http.MethodGet, c.path, nil, s.H), 404, "not_found")
		if body["resource_type"] != c.typ || body["resource_id"] != c.id {
			t.Errorf("%s: %v", c.path, body)
		}
	}
}

// insertActivities stores n activities of the card directly, several per
// millisecond (so paging must break ties on id), all types in turn.
func insertActivities(t *testing.T, e *resttest.Env, projectID, cardID string, n int, base time.Time) {
	t.Helper()
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: projectID})
	types := []string{"vl.card.created", "vl.card.assigned", "vl.card.unassigned", "vl.card.code_generation.succeeded", "vl.card.code_generation.failed"}
	builders := make([]*ent.CardActivityCreate, n)
	for i := range builders {
		builders[i] = e.DB.Client.CardActivity.Create().SetCardID(cardID).SetType(types[i%len(types)]).
			SetData(map[string]any{"i": i}).SetCreatedAt(base.Add(time.Duration(i/3) * time.Millisecond))
	}
	if _, err := e.DB.Client.CardActivity.CreateBulk(builders...).Save(ctx); err != nil {
		t.Fatal(err)
	}
}

// pageAll follows cursors from first to last page and returns the ids.
func pageAll(t *testing.T, e *resttest.Env, h resttest.Headers, path string, q url.Values, during func()) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for page := 0; ; page++ {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		if cursor != "" {
			qq.Set("cursor", cursor)
		}
		got := resttest.MustOK(t, e, http.MethodGet, path+"?"+qq.Encode(), nil, h)
		for _, d := range got["data"].([]any) {
			ids = append(ids, d.(map[string]any)["id"].(string))
		}
		if during != nil {
			during()
		}
		if got["cursor"] == nil {
			return ids
		}
		c := got["cursor"].(map[string]any)
		if !resttest.TimestampRE.MatchString(c["expires_at"].(string)) {
			t.Fatalf("cursor expires_at %v", c["expires_at"])
		}
		cursor = c["next"].(string)
		if page > 1000 {
			t.Fatal("paging does not end")
		}
	}
}

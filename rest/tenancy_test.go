package rest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/rest/resttest"
)

func TestCredentialsAreRequired(t *testing.T) {
	e := resttest.New(t)
	boot := e.NewManagementCredentials()
	cases := map[string]resttest.Headers{
		"none":              {},
		"id only":           {"X-App-Id": e.Project.AppID},
		"token only":        {"X-App-Token": e.Project.AppToken},
		"wrong token":       {"X-App-Id": e.Project.AppID, "X-App-Token": e.Project.AppToken + "x"},
		"unknown id":        {"X-App-Id": "nope", "X-App-Token": e.Project.AppToken},
		"swapped":           {"X-App-Id": e.Project.AppToken, "X-App-Token": e.Project.AppID},
		"management keys":   {"X-Management-Id": boot.ManagementID, "X-Management-Token": boot.ManagementToken},
		"management as app": {"X-App-Id": boot.ManagementID, "X-App-Token": boot.ManagementToken},
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "x"}, h)
			if got := resp.JSON(t); resp.Status != http.StatusUnauthorized || got["code"] != float64(401) ||
				got["key"] != "unauthorized" || got["message"] != "Unauthorized" {
				t.Errorf("REST: %d %s", resp.Status, resp.Body)
			}
			gql := e.GraphQL(h, `{ campaigns { totalCount } }`, nil)
			if gql.Status != http.StatusUnauthorized || len(gql.Errors) != 1 ||
				gql.Errors[0].Extensions["key"] != "unauthorized" || gql.Errors[0].Extensions["code"] != float64(401) {
				t.Errorf("GraphQL: %d %+v", gql.Status, gql.Errors)
			}
		})
	}
	if n := e.DB.Client.Campaign.Query().CountX(systemCtx()); n != 0 {
		t.Errorf("%d campaigns stored by refused requests", n)
	}
}

func TestProjectsAreIsolated(t *testing.T) {
	e := resttest.New(t)
	a, b := resttest.App(e.Project), resttest.App(e.NewProject("B"))
	created := createCampaign(t, e, map[string]any{"name": "A only"})
	id := created["id"].(string)

	// REST: by ID and by name.
	for _, path := range []string{"/v1/campaigns/" + id, "/v1/campaigns/A%20only"} {
		if resp := e.Do(http.MethodGet, path, nil, b); resp.Status != http.StatusNotFound || resp.JSON(t)["key"] != "not_found" {
			t.Errorf("project B GET %s: %d %s", path, resp.Status, resp.Body)
		}
		if resp := e.Do(http.MethodGet, path, nil, a); resp.Status != http.StatusOK {
			t.Errorf("project A GET %s: %d", path, resp.Status)
		}
	}

	// GraphQL: single lookup, connection, node and nodes.
	one := e.GraphQL(b, `query($id: String!) { campaign(idOrName: $id) { id } }`, map[string]any{"id": id})
	if len(one.Errors) != 1 || one.Errors[0].Extensions["key"] != "not_found" || one.Errors[0].Extensions["code"] != float64(404) {
		t.Errorf("campaign(idOrName) from B: %+v", one)
	}
	conn := e.GraphQL(b, `{ campaigns { totalCount edges { node { id } } } }`, nil)
	if c := conn.Data["campaigns"].(map[string]any); c["totalCount"] != float64(0) || len(c["edges"].([]any)) != 0 {
		t.Errorf("campaigns from B: %v", c)
	}
	node := e.GraphQL(b, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
	if node.Data["node"] != nil || len(node.Errors) != 1 || node.Errors[0].Extensions["key"] != "not_found" {
		t.Errorf("node from B: %+v", node)
	}
	nodes := e.GraphQL(b, `query($id: ID!) { nodes(ids: [$id]) { id } }`, map[string]any{"id": id})
	if list, _ := nodes.Data["nodes"].([]any); len(list) == 1 && list[0] != nil {
		t.Errorf("nodes from B returned the campaign: %+v", nodes)
	}
	own := e.GraphQL(a, `query($id: ID!) { node(id: $id) { id ... on Campaign { name } } }`, map[string]any{"id": id})
	if n, _ := own.Data["node"].(map[string]any); n["name"] != "A only" {
		t.Errorf("node from A: %+v", own)
	}
}

func TestDataLayerFailsClosedWithoutViewer(t *testing.T) {
	e := resttest.New(t)
	_, err := e.DB.Client.Campaign.Query().All(context.Background())
	if !errors.Is(err, schema.ErrNoViewer) {
		t.Fatalf("query without viewer: err = %v, want ErrNoViewer", err)
	}
	_, err = e.DB.Client.Campaign.Create().SetName("x").SetCampaignType("DISCOUNT_COUPONS").SetType("STATIC").
		Save(context.Background())
	if !errors.Is(err, schema.ErrNoViewer) {
		t.Fatalf("create without viewer: err = %v, want ErrNoViewer", err)
	}
	// A viewer stamps its own project and cannot write into another one.
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID})
	_, err = e.DB.Client.Campaign.Create().SetName("x").SetCampaignType("DISCOUNT_COUPONS").SetType("STATIC").
		SetProjectID("proj_other").Save(ctx)
	if err == nil {
		t.Fatal("create into another project succeeded")
	}
}

package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/resttest"
)

// refuseNullCase is an update whose members are all required: a null on
// one (path) is a 400 naming it and writes nothing (read shows member as
// it was).
type refuseNullCase struct {
	name   string
	put    string
	body   map[string]any
	read   func(t *testing.T) map[string]any
	member string
	h      resttest.Headers
}

// The updates that came last to null clears (docs/campaigns.md "Null
// clears"): a null clears a nullable member, absent keeps, a null on a
// required member is a 400 that writes nothing.
func TestUpdateNullClearsRemainingResources(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	camp, tiers := promotionCampaign(t, e, app, "Stacked", amountTier("Ten off", 1000))
	cat := createCategory(t, e, app, "Seasonal", 1)["id"].(string)
	discountCode(t, e, app, "Templated", "TPL-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)

	cases := []nullCase{{
		name: "promotion stack",
		create: func(t *testing.T) (string, resttest.Headers) {
			s := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+camp["id"].(string)+"/stacks", map[string]any{"name": "both",
				"tiers": map[string]any{"ids": []any{tiers[0]["id"]}}}, app), http.StatusOK)
			return "/v1/promotions/" + camp["id"].(string) + "/stacks/" + s["id"].(string), app
		},
		set:   map[string]any{"category_id": cat},
		nulls: []string{"category_id"}, kept: []string{"name", "tiers"}, required: "name",
	}, {
		name: "campaign template",
		create: func(t *testing.T) (string, resttest.Headers) {
			tpl := must(t, e.DoJSON(http.MethodPost, "/v1/templates/campaigns", map[string]any{"name": "T", "campaign_id": "Templated"}, app), http.StatusOK)
			return "/v1/templates/campaigns/" + tpl["id"].(string), app
		},
		set:   map[string]any{"description": "From the spring campaign"},
		nulls: []string{"description"}, kept: []string{"name"}, required: "name",
	}, {
		name:   "management project",
		create: func(t *testing.T) (string, resttest.Headers) { return projectPath(pid), mk },
		set:    map[string]any{"description": "Our shop", "client_trusted_domains": []any{"https://shop.example.com"}, "timezone": "Europe/Oslo"},
		nulls:  []string{"description", "client_trusted_domains"}, kept: []string{"name", "timezone"}, required: "timezone",
	}, {
		name: "management metadata schema: a null definition goes",
		create: func(t *testing.T) (string, resttest.Headers) {
			ms := must(t, e.DoJSON(http.MethodPost, projectPath(pid, "/metadata-schemas"), map[string]any{"related_object": "customer",
				"properties": map[string]any{"tier": map[string]any{"type": "string"}}}, mk), http.StatusOK)
			return projectPath(pid, "/metadata-schemas/", ms["id"].(string)), mk
		},
		set:   map[string]any{"properties": map[string]any{"vip": map[string]any{"type": "boolean"}}},
		nulls: []string{"properties.vip"}, kept: []string{"properties.tier", "related_object"}, required: "related_object",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runNullCase(t, e, c) })
	}

	// Updates with nothing to clear: every null is refused.
	s := newLoyaltySetup(t, e)
	rw := purchasable(t, e, s, 10, 3)
	f := newRewardFixture(t, e, 0)
	mat := f.createReward(t, map[string]any{"name": "Mug", "type": "MATERIAL", "parameters": map[string]any{"product": map[string]any{"id": f.product}}})["id"].(string)
	asg := f.assign(t, mat, f.points, 40)["id"].(string)
	pc := must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "AUTO_UPDATE", "name": "Cheap",
		"filter": map[string]any{"junction": "AND", "price": map[string]any{"conditions": map[string]any{"$less_than": []any{500}}}}}, app), http.StatusOK)["id"].(string)
	programReward := func(t *testing.T) map[string]any {
		for _, r := range mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/rewards", nil, s.H)["data"].([]any) {
			if r.(map[string]any)["reward_id"] == rw || r.(map[string]any)["id"] == rw {
				return r.(map[string]any)
			}
		}
		t.Fatalf("program reward %s not listed", rw)
		return nil
	}
	read := func(path string, h resttest.Headers) func(t *testing.T) map[string]any {
		return func(t *testing.T) map[string]any { return must(t, e.Do(http.MethodGet, path, nil, h), http.StatusOK) }
	}
	refusals := []refuseNullCase{
		{name: "v2 program reward stock", put: "/v2/loyalties/programs/" + s.Program + "/rewards/" + rw, h: s.H,
			body: map[string]any{"stock": nil}, read: programReward, member: "stock"},
		{name: "v2 program reward costs", put: "/v2/loyalties/programs/" + s.Program + "/rewards/" + rw, h: s.H,
			body: map[string]any{"costs": nil, "stock": 9}, read: programReward, member: "stock"},
		{name: "v1 reward assignment points", put: "/v1/rewards/" + mat + "/assignments/" + asg, h: app,
			body: map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": nil, "auto_redeem": true}}},
			read: read("/v1/rewards/"+mat+"/assignments/"+asg, app), member: "parameters"},
		{name: "v1 reward assignment parameters", put: "/v1/loyalties/" + f.points + "/rewards/" + asg, h: app,
			body: map[string]any{"parameters": nil}, read: read("/v1/rewards/"+mat+"/assignments/"+asg, app), member: "parameters"},
		{name: "product collection name", put: "/v1/product-collections/" + pc, h: app,
			body: map[string]any{"name": nil, "filter": map[string]any{"price": map[string]any{"conditions": map[string]any{"$less_than": []any{9}}}}},
			read: read("/v1/product-collections/"+pc, app), member: "filter"},
		{name: "product collection filter", put: "/v1/product-collections/" + pc, h: app,
			body: map[string]any{"filter": nil, "name": "Renamed"}, read: read("/v1/product-collections/"+pc, app), member: "name"},
		{name: "management project name", put: projectPath(pid), h: mk,
			body: map[string]any{"name": nil, "description": "x"}, read: read(projectPath(pid), mk), member: "description"},
		{name: "management project switch", put: projectPath(pid), h: mk,
			body: map[string]any{"client_redeem_enabled": nil, "description": "y"}, read: read(projectPath(pid), mk), member: "description"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			before := c.read(t)
			wantError(t, e.DoJSON(http.MethodPut, c.put, c.body, c.h), http.StatusBadRequest, "invalid_payload", "null")
			if after := c.read(t); mustJSON(member(after, c.member)) != mustJSON(member(before, c.member)) {
				t.Errorf("a refused update wrote %s: %v, was %v", c.member, member(after, c.member), member(before, c.member))
			}
		})
	}

	t.Run("management user role", func(t *testing.T) {
		ctx := ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: pid}), e.DB.Client)
		if err := graph.InTx(ctx, func(ctx context.Context) error {
			_, err := access.PutProjectUser(ctx, access.ProjectUserInput{Email: "kim@example.com", Role: "ADMIN"})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		users := must(t, e.Do(http.MethodGet, projectPath(pid, "/users"), nil, mk), http.StatusOK)["data"].([]any)
		user := users[len(users)-1].(map[string]any)
		path := projectPath(pid, "/users/", user["id"].(string))
		wantError(t, e.DoJSON(http.MethodPut, path, map[string]any{"role": nil}, mk), http.StatusBadRequest, "invalid_payload", "role")
		if got := must(t, e.Do(http.MethodGet, path, nil, mk), http.StatusOK); got["role"] != user["role"] {
			t.Errorf("role after a refused null = %v, was %v", got["role"], user["role"])
		}
	})
}

// A null customer or referrer takes them off the order; a paid order
// leaves the customer's summary.orders.
func TestOrderNullCustomerAndReferrer(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createOrder(t, e, app, map[string]any{"source_id": "paid-1", "status": "PAID", "customer": map[string]any{"source_id": "ann"},
		"referrer": map[string]any{"source_id": "ref"}, "amount": 4000})
	orders := func() map[string]any {
		cust := must(t, e.Do(http.MethodGet, "/v1/customers/ann", nil, app), http.StatusOK)
		return cust["summary"].(map[string]any)["orders"].(map[string]any)
	}
	if o := orders(); o["total_count"] != float64(1) || o["total_amount"] != float64(4000) {
		t.Fatalf("summary.orders before = %v", o)
	}
	kept := must(t, e.DoJSON(http.MethodPut, "/v1/orders/paid-1", map[string]any{"referrer": nil}, app), http.StatusOK)
	if kept["referrer_id"] != nil || kept["customer_id"] == nil {
		t.Errorf("after referrer: null = %s", mustJSON(kept))
	}
	wantError(t, e.DoJSON(http.MethodPut, "/v1/orders/paid-1", map[string]any{"customer": nil, "status": nil}, app),
		http.StatusBadRequest, "invalid_payload", "status")
	if got := must(t, e.Do(http.MethodGet, "/v1/orders/paid-1", nil, app), http.StatusOK); got["customer_id"] == nil {
		t.Errorf("a refused update took the customer off: %s", mustJSON(got))
	}
	cleared := must(t, e.DoJSON(http.MethodPut, "/v1/orders/paid-1", map[string]any{"customer_id": nil}, app), http.StatusOK)
	if cleared["customer_id"] != nil || cleared["amount"] != float64(4000) || cleared["status"] != "PAID" {
		t.Errorf("after customer_id: null = %s", mustJSON(cleared))
	}
	if o := orders(); o["total_count"] != float64(0) || o["total_amount"] != float64(0) {
		t.Errorf("summary.orders after the customer left the order = %v", o)
	}
}

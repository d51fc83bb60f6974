package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// The GraphQL side of TestUpdateNullClearsRemainingResources: the same
// use cases, so a null clears (inline or through a variable) and a null
// on a required member is an invalid_payload error that writes nothing.
func TestGraphQLUpdateNullClearsRemainingResources(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	mk := e.NewManagementKey()
	pid := e.Project.ProjectID
	camp, tiers := promotionCampaign(t, e, app, "Stacked gql", amountTier("Ten off", 1000))
	cat := createCategory(t, e, app, "Seasonal", 1)["id"].(string)
	stack := must(t, e.DoJSON(http.MethodPost, "/v1/promotions/"+camp["id"].(string)+"/stacks", map[string]any{"name": "both",
		"category_id": cat, "tiers": map[string]any{"ids": []any{tiers[0]["id"]}}}, app), http.StatusOK)["id"].(string)
	discountCode(t, e, app, "Templated gql", "TPLG-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	tpl := must(t, e.DoJSON(http.MethodPost, "/v1/templates/campaigns", map[string]any{"name": "T", "description": "d",
		"campaign_id": "Templated gql"}, app), http.StatusOK)["id"].(string)
	createOrder(t, e, app, map[string]any{"source_id": "gql-1", "customer": map[string]any{"source_id": "gus"},
		"referrer": map[string]any{"source_id": "rae"}, "amount": 100})
	s := newLoyaltySetup(t, e)
	rw := purchasable(t, e, s, 10, 3)
	f := newRewardFixture(t, e, 0)
	mat := f.createReward(t, map[string]any{"name": "Mug", "type": "MATERIAL", "parameters": map[string]any{"product": map[string]any{"id": f.product}}})["id"].(string)
	asg := f.assign(t, mat, f.points, 40)["id"].(string)
	pc := must(t, e.DoJSON(http.MethodPost, "/v1/product-collections", map[string]any{"type": "AUTO_UPDATE", "name": "Cheap",
		"filter": map[string]any{"junction": "AND", "price": map[string]any{"conditions": map[string]any{"$less_than": []any{500}}}}}, app), http.StatusOK)["id"].(string)
	ms := must(t, e.DoJSON(http.MethodPost, projectPath(pid, "/metadata-schemas"), map[string]any{"related_object": "order",
		"properties": map[string]any{"tier": map[string]any{"type": "string"}, "vip": map[string]any{"type": "boolean"}}}, mk), http.StatusOK)["id"].(string)

	clears := []struct {
		name, query, field string
		vars               map[string]any
		h                  resttest.Headers
		management         bool
		cleared, kept      []string
	}{
		{name: "promotion stack category", field: "updatePromotionStack", h: app,
			query:   `mutation { updatePromotionStack(campaign: "` + camp["id"].(string) + `", id: "` + stack + `", input: {categoryID: null}) { name categoryID } }`,
			cleared: []string{"categoryID"}, kept: []string{"name"}},
		{name: "template description", field: "updateCampaignTemplate", h: app,
			query:   `mutation($in: CampaignTemplateUpdateInput!) { updateCampaignTemplate(id: "` + tpl + `", input: $in) { name description } }`,
			vars:    map[string]any{"in": map[string]any{"description": nil}},
			cleared: []string{"description"}, kept: []string{"name"}},
		{name: "order customer and referrer", field: "updateOrder", h: app,
			query:   `mutation { updateOrder(id: "gql-1", input: {customer: null, referrerID: null}) { customerID amount } }`,
			cleared: []string{"customerID"}, kept: []string{"amount"}},
		{name: "management project trusted domains", field: "updateManagementProject", h: mk, management: true,
			query:   `mutation { updateManagementProject(id: "` + pid + `", input: {clientTrustedDomains: null}) { name clientTrustedDomains } }`,
			cleared: []string{"clientTrustedDomains"}, kept: []string{"name"}},
		{name: "management metadata schema definition", field: "updateManagementMetadataSchema", h: mk, management: true,
			query:   `mutation { updateManagementMetadataSchema(projectID: "` + pid + `", id: "` + ms + `", input: {properties: {vip: null}}) { relatedObject properties } }`,
			cleared: []string{"properties.vip"}, kept: []string{"relatedObject", "properties.tier"}},
	}
	for _, c := range clears {
		t.Run(c.name, func(t *testing.T) {
			var r resttest.GraphQLResponse
			if c.management {
				r = managementGraphQL(t, e, c.h, c.query, c.vars)
			} else {
				r = e.GraphQL(c.h, c.query, c.vars)
			}
			got := mutationData(t, r, c.field)
			for _, name := range c.cleared {
				if member(got, name) != nil {
					t.Errorf("null did not clear %s: %v", name, member(got, name))
				}
			}
			for _, name := range c.kept {
				if emptyValue(member(got, name)) {
					t.Errorf("absent %s lost its value: %v", name, got)
				}
			}
		})
	}

	refusals := []struct {
		name, query, check string
		management         bool
		h                  resttest.Headers
	}{
		{name: "promotion stack name", h: app,
			query: `mutation { updatePromotionStack(campaign: "` + camp["id"].(string) + `", id: "` + stack + `", input: {name: null, categoryID: "` + cat + `"}) { id } }`,
			check: `{ promotionStack(campaign: "` + camp["id"].(string) + `", id: "` + stack + `") { name categoryID } }`},
		{name: "template name", h: app,
			query: `mutation { updateCampaignTemplate(id: "` + tpl + `", input: {name: null, description: "new"}) { id } }`,
			check: `{ campaignTemplate(id: "` + tpl + `") { name description } }`},
		{name: "program reward stock", h: app,
			query: `mutation { updateProgramReward(programID: "` + s.Program + `", rewardID: "` + rw + `", input: {stock: null}) { id } }`},
		{name: "v1 reward assignment points", h: app,
			query: `mutation { updateV1RewardAssignment(rewardID: "` + mat + `", id: "` + asg + `", input: {parameters: {loyalty: {points: null}}}) { id } }`,
			check: `{ v1RewardAssignment(rewardID: "` + mat + `", id: "` + asg + `") { points } }`},
		{name: "product collection name", h: app,
			query: `mutation { updateProductCollection(id: "` + pc + `", input: {name: null}) { id } }`},
		{name: "management project name", h: mk, management: true,
			query: `mutation { updateManagementProject(id: "` + pid + `", input: {name: null, description: "changed"}) { id } }`,
			check: `{ managementProject(id: "` + pid + `") { name description } }`},
		{name: "management metadata schema related object", h: mk, management: true,
			query: `mutation { updateManagementMetadataSchema(projectID: "` + pid + `", id: "` + ms + `", input: {relatedObject: null, properties: {tier: null}}) { id } }`,
			check: `{ managementMetadataSchema(projectID: "` + pid + `", id: "` + ms + `") { properties } }`},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			do := func(query string) resttest.GraphQLResponse {
				if c.management {
					return managementGraphQL(t, e, c.h, query, nil)
				}
				return e.GraphQL(c.h, query, nil)
			}
			var before resttest.GraphQLResponse
			if c.check != "" {
				before = do(c.check)
				if len(before.Errors) > 0 {
					t.Fatalf("check query: %+v", before.Errors)
				}
			}
			bad := do(c.query)
			if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
				t.Fatalf("null on a required member = %+v", bad)
			}
			if c.check != "" {
				if after := do(c.check); mustJSON(after.Data) != mustJSON(before.Data) {
					t.Errorf("a refused update wrote: %s, was %s", mustJSON(after.Data), mustJSON(before.Data))
				}
			}
		})
	}
}

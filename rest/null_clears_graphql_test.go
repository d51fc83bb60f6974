package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// gqlNullCase is one update mutation of TestGraphQLUpdateNullClears: set
// gives values, clear sends nulls (inline or as variables) — each field of
// cleared must come back null and each of kept must keep its value —
// and refuse nulls a required field (an error, nothing written).
type gqlNullCase struct {
	name               string
	set, clear, refuse string
	vars               map[string]any
	field              string
	cleared, kept      []string
}

// On every GraphQL update an explicit null clears a field and an absent
// one keeps it, inline and through variables, through the same use-case
// parameter as REST (graph/graphql_nulls.go).
func TestGraphQLUpdateNullClears(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Autumn", "AUT-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, 3)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "cat"}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "hat", "name": "Hat", "price": 900}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/products/hat/skus", map[string]any{"source_id": "hat-m", "sku": "Hat M", "price": 950, "currency": "EUR"}, app), http.StatusOK)
	_, tiers := promotionCampaign(t, e, app, "Fall deals", amountTier("Five off", 500))
	tier := tiers[0]["id"].(string)
	rule := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "Small",
		"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{10}}}, "logic": "1"},
		"error": map[string]any{"message": "no"}}, app), http.StatusOK)["id"].(string)
	program := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Club gql"}, v2(t, e, e.Project))["id"].(string)
	reward := must(t, e.DoJSON(http.MethodPost, "/v1/rewards", map[string]any{"name": "Hat reward", "type": "MATERIAL",
		"parameters": map[string]any{"product": map[string]any{"id": "hat"}}}, app), http.StatusOK)["id"].(string)
	newV1Program(t, e, app, "Club v1 gql", 0)

	cases := []gqlNullCase{{
		name:    "voucher",
		set:     `mutation { updateVoucher(codeOrID: "AUT-1", input: {additionalInfo: "box", startDate: "2030-01-01T00:00:00Z", expirationDate: "2031-01-01T00:00:00Z"}) { additionalInfo startDate expirationDate } }`,
		clear:   `mutation($in: UpdateVoucherInput!) { updateVoucher(codeOrID: "AUT-1", input: $in) { additionalInfo startDate expirationDate } }`,
		vars:    map[string]any{"in": map[string]any{"additionalInfo": nil, "expirationDate": nil}},
		refuse:  `mutation { updateVoucher(codeOrID: "AUT-1", input: {active: null, startDate: null}) { startDate } }`,
		field:   "updateVoucher",
		cleared: []string{"additionalInfo", "expirationDate"}, kept: []string{"startDate"},
	}, {
		name:    "campaign",
		set:     `mutation { updateCampaign(idOrName: "Autumn", input: {description: "leaves", activityDurationAfterPublishing: "P3D"}) { description activityDurationAfterPublishing } }`,
		clear:   `mutation { updateCampaign(idOrName: "Autumn", input: {description: null}) { description activityDurationAfterPublishing } }`,
		refuse:  `mutation { updateCampaign(idOrName: "Autumn", input: {autoJoin: null, activityDurationAfterPublishing: null}) { description } }`,
		field:   "updateCampaign",
		cleared: []string{"description"}, kept: []string{"activityDurationAfterPublishing"},
	}, {
		name:    "customer and an address member",
		set:     `mutation { updateCustomer(idOrSourceID: "cat", input: {name: "Cat", email: "cat@example.com", address: {city: "Rome", country: "IT"}}) { name email address { city country } } }`,
		clear:   `mutation($in: CustomerInput!) { updateCustomer(idOrSourceID: "cat", input: $in) { name email address { city country } } }`,
		vars:    map[string]any{"in": map[string]any{"name": nil, "address": map[string]any{"city": nil}}},
		field:   "updateCustomer",
		cleared: []string{"name", "address.city"}, kept: []string{"email", "address.country"},
	}, {
		name:    "product",
		set:     `mutation { updateProduct(id: "hat", input: {imageURL: "https://img.example.com/hat.png"}) { name price imageURL } }`,
		clear:   `mutation { updateProduct(id: "hat", input: {price: null, imageURL: null}) { name price imageURL } }`,
		field:   "updateProduct",
		cleared: []string{"price", "imageURL"}, kept: []string{"name"},
	}, {
		name:    "SKU",
		set:     `mutation { updateSku(product: "hat", id: "hat-m", input: {sku: "Hat M"}) { sku price currency } }`,
		clear:   `mutation { updateSku(product: "hat", id: "hat-m", input: {currency: null}) { sku price currency } }`,
		field:   "updateSku",
		cleared: []string{"currency"}, kept: []string{"sku", "price"},
	}, {
		name:    "promotion tier",
		set:     `mutation { updatePromotionTier(id: "` + tier + `", input: {banner: "Now", startDate: "2030-01-01T00:00:00Z"}) { name banner startDate } }`,
		clear:   `mutation { updatePromotionTier(id: "` + tier + `", input: {banner: null}) { name banner startDate } }`,
		refuse:  `mutation { updatePromotionTier(id: "` + tier + `", input: {name: null, startDate: null}) { name } }`,
		field:   "updatePromotionTier",
		cleared: []string{"banner"}, kept: []string{"name", "startDate"},
	}, {
		name:    "validation rule",
		set:     `mutation { updateValidationRule(id: "` + rule + `", input: {error: {message: "too small"}}) { name error } }`,
		clear:   `mutation($in: ValidationRuleInput!) { updateValidationRule(id: "` + rule + `", input: $in) { name error } }`,
		vars:    map[string]any{"in": map[string]any{"error": nil}},
		refuse:  `mutation { updateValidationRule(id: "` + rule + `", input: {name: null, error: null}) { name } }`,
		field:   "updateValidationRule",
		cleared: []string{"error"}, kept: []string{"name"},
	}, {
		name:    "v2 loyalty program",
		set:     `mutation { updateLoyaltyProgram(id: "` + program + `", input: {startDate: "2030-01-01T00:00:00Z", endDate: "2031-01-01T00:00:00Z"}) { name startDate endDate } }`,
		clear:   `mutation { updateLoyaltyProgram(id: "` + program + `", input: {endDate: null}) { name startDate endDate } }`,
		refuse:  `mutation { updateLoyaltyProgram(id: "` + program + `", input: {name: null, startDate: null}) { name } }`,
		field:   "updateLoyaltyProgram",
		cleared: []string{"endDate"}, kept: []string{"name", "startDate"},
	}, {
		name:    "v1 reward",
		set:     `mutation { updateV1Reward(id: "` + reward + `", input: {stock: 5}) { name stock } }`,
		clear:   `mutation { updateV1Reward(id: "` + reward + `", input: {stock: null}) { name stock } }`,
		refuse:  `mutation { updateV1Reward(id: "` + reward + `", input: {name: null, stock: null}) { name } }`,
		field:   "updateV1Reward",
		cleared: []string{"stock"}, kept: []string{"name"},
	}, {
		name:    "v1 loyalty program, two inputs",
		set:     `mutation { updateLoyaltyV1Program(idOrName: "Club v1 gql", input: {description: "club"}) { name description loyaltyTiersExpiration } }`,
		clear:   `mutation { updateLoyaltyV1Program(idOrName: "Club v1 gql", input: {description: null}, program: {loyaltyTiersExpiration: null}) { name description loyaltyTiersExpiration } }`,
		field:   "updateLoyaltyV1Program",
		cleared: []string{"description", "loyaltyTiersExpiration"}, kept: []string{"name"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set := mutationData(t, e.GraphQL(app, c.set, nil), c.field)
			if c.refuse != "" {
				bad := e.GraphQL(app, c.refuse, nil)
				if len(bad.Errors) != 1 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
					t.Fatalf("null on a required field = %+v", bad)
				}
			}
			cleared := mutationData(t, e.GraphQL(app, c.clear, c.vars), c.field)
			for _, name := range c.cleared {
				if member(set, name) == nil || member(cleared, name) != nil {
					t.Errorf("%s: set %v, after null %v", name, member(set, name), member(cleared, name))
				}
			}
			for _, name := range c.kept {
				if member(set, name) == nil || mustJSON(member(cleared, name)) != mustJSON(member(set, name)) {
					t.Errorf("absent %s changed: %v, was %v", name, member(cleared, name), member(set, name))
				}
			}
		})
	}
}

// mutationData is the object a one-field mutation answered, failing on errors.
func mutationData(t *testing.T, r resttest.GraphQLResponse, field string) map[string]any {
	t.Helper()
	if len(r.Errors) > 0 || r.Data[field] == nil {
		t.Fatalf("%s: %+v", field, r)
	}
	return r.Data[field].(map[string]any)
}

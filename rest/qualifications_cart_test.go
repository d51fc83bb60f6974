package rest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestQualificationReadsProductMetadataOnlyForItsRules: a cart's products
// are read with their metadata only when a rule reads it (product.metadata);
// such a rule sees the catalogue's metadata of a line named by source_id or
// by id, beside tiers whose rules only name products, in one qualification
// and in a validation.
func TestQualificationReadsProductMetadataOnlyForItsRules(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	red := createProduct(t, e, app, map[string]any{"source_id": "red-pen", "name": "red pen", "metadata": map[string]any{"color": "red"}})
	createProduct(t, e, app, map[string]any{"source_id": "blue-pen", "name": "blue pen", "metadata": map[string]any{"color": "blue"}})
	rule := func(name string, body map[string]any) string {
		body["name"] = name
		return must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", body, app), http.StatusOK)["id"].(string)
	}
	redRule := rule("red things", map[string]any{"rules": map[string]any{"1": map[string]any{"name": "product.metadata",
		"property": "color", "conditions": map[string]any{"$is": []any{"red"}}}}})
	bluePen := rule("a blue pen", map[string]any{"rules": map[string]any{"1": map[string]any{"name": "product.id",
		"conditions": map[string]any{"$is": []any{"blue-pen"}}}}})
	with := func(tier map[string]any, rules ...string) map[string]any {
		tier["validation_rules"] = rules
		return tier
	}
	_, tiers := promotionCampaign(t, e, app, "Colors", with(amountTier("Red", 100), redRule), with(amountTier("Blue", 200), bluePen))
	names := map[string]string{}
	for _, tr := range tiers {
		names[tr["id"].(string)] = tr["name"].(string)
	}
	qualify := func(items ...any) []string {
		t.Helper()
		res := must(t, e.DoJSON(http.MethodPost, "/v1/qualifications", map[string]any{"order": map[string]any{"items": items},
			"options": map[string]any{"limit": 50}}, app), http.StatusOK)
		var out []string
		for _, x := range res["redeemables"].(map[string]any)["data"].([]any) {
			out = append(out, names[x.(map[string]any)["id"].(string)])
		}
		slices.Sort(out)
		return out
	}
	line := func(product string) map[string]any {
		return map[string]any{"product_id": product, "quantity": 1, "price": 1000}
	}
	for _, c := range []struct {
		name  string
		items []any
		want  []string
	}{
		{"red pen by source_id", []any{line("red-pen")}, []string{"Red"}},
		{"red pen by id", []any{line(red["id"].(string))}, []string{"Red"}},
		{"blue pen", []any{line("blue-pen")}, []string{"Blue"}},
		{"both", []any{line("blue-pen"), line("red-pen")}, []string{"Blue", "Red"}},
		{"unknown product", []any{line("green-pen")}, nil},
	} {
		if got := qualify(c.items...); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Without a metadata rule among the redeemables checked: the product
	// rule alone, same answer.
	res := must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"order": map[string]any{"items": []any{line("blue-pen")}},
		"redeemables": []any{map[string]any{"object": "promotion_tier", "id": tiers[1]["id"]}}}, app), http.StatusOK)
	if res["valid"] != true {
		t.Errorf("validation of Blue: %s", mustJSON(res))
	}
	res = must(t, e.DoJSON(http.MethodPost, "/v1/validations", map[string]any{"order": map[string]any{"items": []any{line("red-pen")}},
		"redeemables": []any{map[string]any{"object": "promotion_tier", "id": tiers[0]["id"]}}}, app), http.StatusOK)
	if res["valid"] != true {
		t.Errorf("validation of Red: %s", mustJSON(res))
	}
}

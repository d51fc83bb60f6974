package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// nullCase is one update route of TestUpdateNullClearsEveryResource: a
// resource made by create (which returns its PUT/GET path), given values
// by set, then updated with nulls (each must come back empty) while kept
// (left out) must keep their values; required is a member whose null is
// refused with 400, writing nothing.
type nullCase struct {
	name     string
	create   func(t *testing.T) (string, resttest.Headers)
	set      map[string]any
	nulls    []string
	kept     []string
	required string
}

// member reads a dotted path ("address.city") of a JSON object.
func member(obj map[string]any, path string) any {
	var cur any = obj
	for _, name := range strings.Split(path, ".") {
		m, _ := cur.(map[string]any)
		cur = m[name]
	}
	return cur
}

// emptyValue reports a member that holds nothing: left out, null, {}, []
// or 0 (an order's discount_amount without a discount).
func emptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	case float64:
		return v == 0
	}
	return false
}

// nullBody is {path: null} for each dotted path, nested as sent.
func nullBody(paths ...string) map[string]any {
	body := map[string]any{}
	for _, path := range paths {
		names := strings.Split(path, ".")
		cur := body
		for _, name := range names[:len(names)-1] {
			next, _ := cur[name].(map[string]any)
			if next == nil {
				next = map[string]any{}
				cur[name] = next
			}
			cur = next
		}
		cur[names[len(names)-1]] = nil
	}
	return body
}

func runNullCase(t *testing.T, e *resttest.Env, c nullCase) {
	path, h := c.create(t)
	set := must(t, e.DoJSON(http.MethodPut, path, c.set, h), http.StatusOK)
	for _, name := range append(append([]string{}, c.nulls...), c.kept...) {
		if emptyValue(member(set, name)) {
			t.Fatalf("%s was not set: %v", name, set)
		}
	}
	if c.required != "" {
		wantError(t, e.DoJSON(http.MethodPut, path, nullBody(c.required, c.nulls[0]), h), http.StatusBadRequest,
			"invalid_payload", c.required)
		if got := must(t, e.Do(http.MethodGet, path, nil, h), http.StatusOK); mustJSON(member(got, c.nulls[0])) != mustJSON(member(set, c.nulls[0])) {
			t.Errorf("a refused update wrote %s: %v", c.nulls[0], member(got, c.nulls[0]))
		}
	}
	cleared := must(t, e.DoJSON(http.MethodPut, path, nullBody(c.nulls...), h), http.StatusOK)
	stored := must(t, e.Do(http.MethodGet, path, nil, h), http.StatusOK)
	for _, got := range []map[string]any{cleared, stored} {
		for _, name := range c.nulls {
			if !emptyValue(member(got, name)) {
				t.Errorf("null did not clear %s: %v", name, member(got, name))
			}
		}
		for _, name := range c.kept {
			if mustJSON(member(got, name)) != mustJSON(member(set, name)) {
				t.Errorf("absent %s changed: %v, was %v", name, member(got, name), member(set, name))
			}
		}
	}
}

// On every update an explicit null clears a field and an absent key
// leaves it; a null on a required member is refused (400) and writes
// nothing.
func TestUpdateNullClearsEveryResource(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	v2h := v2(t, e, e.Project)
	dates := map[string]any{"start_date": "2030-01-01T00:00:00Z", "expiration_date": "2031-01-01T00:00:00Z"}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range dates {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	cases := []nullCase{{
		name: "voucher redemption and active",
		create: func(t *testing.T) (string, resttest.Headers) {
			discountCode(t, e, app, "Spring", "SPR-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, 3)
			return "/v1/vouchers/SPR-1", app
		},
		set:   map[string]any{"redemption": map[string]any{"quantity": 5}, "additional_info": "x", "start_date": "2030-01-01T00:00:00Z"},
		nulls: []string{"redemption.quantity", "additional_info"}, kept: []string{"start_date"}, required: "active",
	}, {
		name: "customer address member",
		create: func(t *testing.T) (string, resttest.Headers) {
			must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, app), http.StatusOK)
			return "/v1/customers/bob", app
		},
		set:   map[string]any{"address": map[string]any{"city": "Oslo", "country": "NO", "line_1": "Main 1"}, "email": "bob@example.com"},
		nulls: []string{"address.city", "address.line_1"}, kept: []string{"address.country", "email"},
	}, {
		name: "promotion tier",
		create: func(t *testing.T) (string, resttest.Headers) {
			_, tiers := promotionCampaign(t, e, app, "Deals", amountTier("Ten off", 1000))
			return "/v1/promotions/tiers/" + tiers[0]["id"].(string), app
		},
		set:   with(map[string]any{"banner": "Big", "metadata": map[string]any{"k": "v"}, "validity_day_of_week": []int{1, 2}}),
		nulls: []string{"banner", "expiration_date", "validity_day_of_week", "metadata"}, kept: []string{"start_date", "name"},
		required: "name",
	}, {
		name: "validation rule",
		create: func(t *testing.T) (string, resttest.Headers) {
			r := must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": "Big orders",
				"rules": map[string]any{"1": map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{1000}}}, "logic": "1"},
			}, app), http.StatusOK)
			return "/v1/validation-rules/" + r["id"].(string), app
		},
		set:   map[string]any{"error": map[string]any{"message": "Too small"}},
		nulls: []string{"error"}, kept: []string{"name", "rules"}, required: "name",
	}, {
		name: "v1 reward",
		create: func(t *testing.T) (string, resttest.Headers) {
			prod := must(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "cup", "name": "Cup"}, app), http.StatusOK)
			r := must(t, e.DoJSON(http.MethodPost, "/v1/rewards", map[string]any{"name": "Cup", "type": "MATERIAL",
				"parameters": map[string]any{"product": map[string]any{"id": prod["id"]}}}, app), http.StatusOK)
			return "/v1/rewards/" + r["id"].(string), app
		},
		set: map[string]any{"stock": 10, "metadata": map[string]any{"k": "v"},
			"attributes": map[string]any{"image_url": "https://img.example.com/cup.png", "description": "A cup"}},
		nulls: []string{"stock", "metadata", "attributes.description"}, kept: []string{"name", "attributes.image_url"},
		required: "name",
	}, {
		name: "v1 earning rule",
		create: func(t *testing.T) (string, resttest.Headers) {
			id := newV1Program(t, e, app, "Earn", 0)["id"].(string)
			r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "order.paid",
				"loyalty": map[string]any{"type": "FIXED", "points": 10}}}, app)
			var created []map[string]any
			if r.Status != http.StatusOK || json.Unmarshal(r.Body, &created) != nil || len(created) != 1 {
				t.Fatalf("creating the earning rule: %d %s", r.Status, r.Body)
			}
			return "/v1/loyalties/" + id + "/earning-rules/" + created[0]["id"].(string), app
		},
		set:   with(map[string]any{"metadata": map[string]any{"k": "v"}, "validity_day_of_week": []int{3}}),
		nulls: []string{"expiration_date", "metadata", "validity_day_of_week"}, kept: []string{"start_date", "loyalty"},
		required: "loyalty",
	}, {
		name: "v1 loyalty program",
		create: func(t *testing.T) (string, resttest.Headers) {
			return "/v1/loyalties/" + newV1Program(t, e, app, "Club v1", 0)["id"].(string), app
		},
		set:   map[string]any{"description": "Our club", "expiration_date": "2031-01-01T00:00:00Z"},
		nulls: []string{"description", "loyalty_tiers_expiration"}, kept: []string{"expiration_date"},
		required: "auto_join",
	}, {
		name: "v2 loyalty program",
		create: func(t *testing.T) (string, resttest.Headers) {
			p := mustOK(t, e, http.MethodPost, "/v2/loyalties/programs", map[string]any{"name": "Club v2"}, v2h)
			return "/v2/loyalties/programs/" + p["id"].(string), v2h
		},
		set:   map[string]any{"start_date": "2030-01-01T00:00:00Z", "end_date": "2031-01-01T00:00:00Z", "metadata": map[string]any{"k": "v"}},
		nulls: []string{"end_date", "metadata"}, kept: []string{"start_date", "name"}, required: "name",
	}, {
		name: "v2 card definition",
		create: func(t *testing.T) (string, resttest.Headers) {
			d := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{"name": "Silver",
				"code_config": map[string]any{"pattern": "SLV-######", "charset": "0123456789"}}, v2h)
			return "/v2/loyalties/card-definitions/" + d["id"].(string), v2h
		},
		set:   map[string]any{"metadata": map[string]any{"k": "v"}},
		nulls: []string{"metadata"}, kept: []string{"name", "code_config"}, required: "name",
	}, {
		name: "v2 reward",
		create: func(t *testing.T) (string, resttest.Headers) {
			gift := createCampaign(t, e, map[string]any{"name": "Gift v2", "voucher": map[string]any{
				"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}})["id"].(string)
			r := mustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{"name": "Gift card", "type": "DIGITAL",
				"digital": map[string]any{"gift_vouchers": map[string]any{"campaign_id": gift, "balance": 500}}}, v2h)
			return "/v2/loyalties/rewards/" + r["id"].(string), v2h
		},
		set:   map[string]any{"metadata": map[string]any{"k": "v"}},
		nulls: []string{"metadata"}, kept: []string{"name", "digital"}, required: "name",
	}, {
		name: "v2 earning rule",
		create: func(t *testing.T) (string, resttest.Headers) {
			def := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{"name": "Bronze",
				"code_config": map[string]any{"pattern": "BRZ-######", "charset": "0123456789"}}, v2h)["id"].(string)
			r := mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn",
				"trigger":  map[string]any{"event": "customer.order.paid"},
				"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 5, "card_definition_id": def}}}}}}, v2h)
			return "/v2/loyalties/earning-rules/" + r["id"].(string), v2h
		},
		set:   map[string]any{"start_date": "2030-01-01T00:00:00Z", "end_date": "2031-01-01T00:00:00Z", "metadata": map[string]any{"k": "v"}},
		nulls: []string{"end_date", "metadata"}, kept: []string{"start_date", "name", "trigger"}, required: "trigger",
	}, {
		name: "v2 tier structure",
		create: func(t *testing.T) (string, resttest.Headers) {
			def := mustOK(t, e, http.MethodPost, "/v2/loyalties/card-definitions", map[string]any{"name": "Copper",
				"code_config": map[string]any{"pattern": "CPR-######", "charset": "0123456789"}}, v2h)["id"].(string)
			ts := mustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures", map[string]any{"name": "Levels",
				"type": "POINT_BALANCE", "card_definition_id": def}, v2h)
			return "/v2/loyalties/tier-structures/" + ts["id"].(string), v2h
		},
		set:   map[string]any{"metadata": map[string]any{"k": "v"}},
		nulls: []string{"metadata"}, kept: []string{"name"}, required: "name",
	}, {
		name: "order",
		create: func(t *testing.T) (string, resttest.Headers) {
			must(t, e.DoJSON(http.MethodPost, "/v1/orders", map[string]any{"source_id": "ord-1",
				"items": []any{map[string]any{"source_id": "line-1", "quantity": 1, "price": 5000}}}, app), http.StatusOK)
			return "/v1/orders/ord-1", app
		},
		set:   map[string]any{"discount_amount": 500, "metadata": map[string]any{"k": "v"}},
		nulls: []string{"discount_amount", "metadata"}, kept: []string{"amount"}, required: "status",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runNullCase(t, e, c) })
	}
}

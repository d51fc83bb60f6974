package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// legacyShop is a project with a VIP customer (ann), another (bob), a
// rule on the customer and one on the order amount.
type legacyShop struct {
	e        *resttest.Env
	app      resttest.Headers
	vip, big string // rule ids
}

func newLegacyShop(t *testing.T) *legacyShop {
	t.Helper()
	e := resttest.New(t)
	s := &legacyShop{e: e, app: resttest.App(e.Project)}
	rule := func(name string, r map[string]any) string {
		return must(t, e.DoJSON(http.MethodPost, "/v1/validation-rules", map[string]any{"name": name,
			"rules": map[string]any{"1": r}}, s.app), http.StatusOK)["id"].(string)
	}
	s.vip = rule("vips", map[string]any{"name": "customer.metadata.vip", "conditions": map[string]any{"$is": []any{true}}})
	s.big = rule("big carts", map[string]any{"name": "order.amount", "conditions": map[string]any{"$more_than": []any{5000}}})
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann", "metadata": map[string]any{"vip": true}}, s.app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, s.app), http.StatusOK)
	return s
}

// assign assigns a rule to a voucher or campaign ({"voucher": code}).
func (s *legacyShop) assign(t *testing.T, rule string, to map[string]any) {
	t.Helper()
	must(t, s.e.DoJSON(http.MethodPost, "/v1/validation-rules/"+rule+"/assignments", to, s.app), http.StatusOK)
}

// standalone creates a standalone discount code.
func (s *legacyShop) standalone(t *testing.T, h resttest.Headers, code string) {
	t.Helper()
	must(t, s.e.DoJSON(http.MethodPost, "/v1/vouchers", map[string]any{"code": code, "type": "DISCOUNT_VOUCHER",
		"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}, h), http.StatusOK)
}

// examine posts a legacy qualification and returns the listed ids (the
// code for vouchers, the name for campaigns).
func (s *legacyShop) examine(t *testing.T, h resttest.Headers, path, query string, body map[string]any) []string {
	t.Helper()
	got := must(t, s.e.DoJSON(http.MethodPost, path+query, body, h), http.StatusOK)
	if got["object"] != "list" || got["data_ref"] != "data" || got["id"] == nil || got["created_at"] == nil {
		t.Fatalf("not a qualification list: %v", got)
	}
	data := got["data"].([]any)
	if int(num(got["total"])) != len(data) {
		t.Fatalf("total %v for %d entries", got["total"], len(data))
	}
	var out []string
	for _, d := range data {
		m := d.(map[string]any)
		switch m["object"] {
		case "voucher":
			if _, ok := m["applicable_to"].(map[string]any); !ok || m["inapplicable_to"] == nil {
				t.Fatalf("a qualified voucher without applicable_to/inapplicable_to: %v", m)
			}
			out = append(out, m["code"].(string))
		case "campaign":
			out = append(out, m["name"].(string))
		default:
			t.Fatalf("unexpected entry %v", m)
		}
	}
	return out
}

func who(source string, amount int) map[string]any {
	return map[string]any{"customer": map[string]any{"source_id": source},
		"order": map[string]any{"amount": amount}}
}

func wantList(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: want %v, got %v", what, want, got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: want %v, got %v", what, want, got)
		}
	}
}

// TestLegacyVoucherQualification: the generic codes a customer and order
// pass the rules of, ordered and limited; codes of bulk campaigns, codes
// held by someone else and other projects' codes are not listed; the
// customer rules alone with audienceRulesOnly; bad input is a 400;
// nothing is written.
func TestLegacyVoucherQualification(t *testing.T) {
	s := newLegacyShop(t)
	e, app := s.e, s.app
	s.standalone(t, app, "VIP10")
	s.assign(t, s.vip, map[string]any{"voucher": "VIP10"})
	s.standalone(t, app, "BIG")
	s.assign(t, s.big, map[string]any{"voucher": "BIG"})
	s.standalone(t, app, "ANY")
	s.standalone(t, app, "BOBS")
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"customer": map[string]any{"source_id": "bob"},
		"voucher": "BOBS"}, app), http.StatusOK)
	discountCode(t, e, app, "Bulk", "BULK-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	other := resttest.App(e.NewProject("project B"))
	s.standalone(t, other, "B-ONLY")

	const path = "/v1/vouchers/qualification"
	wantList(t, "ann, big order", s.examine(t, app, path, "?order=code", who("ann", 6000)), "ANY", "BIG", "VIP10")
	wantList(t, "ann, descending", s.examine(t, app, path, "?order=-code", who("ann", 6000)), "VIP10", "BIG", "ANY")
	wantList(t, "limit", s.examine(t, app, path, "?order=-code&limit=1", who("ann", 6000)), "VIP10")
	wantList(t, "bob, small order", s.examine(t, app, path, "?order=code", who("bob", 1000)), "ANY", "BOBS")
	wantList(t, "bob, audience only", s.examine(t, app, path, "?order=code&audienceRulesOnly=true", who("bob", 1000)),
		"ANY", "BIG", "BOBS")
	wantList(t, "no customer", s.examine(t, app, path, "?order=updated_at", map[string]any{"order": map[string]any{"amount": 100}}),
		"ANY")
	wantList(t, "project B", s.examine(t, other, path, "", who("newbie", 6000)), "B-ONLY")

	for _, q := range []string{"?limit=0", "?limit=51", "?limit=ten", "?order=type", "?order=-", "?audienceRulesOnly=maybe"} {
		if r := e.DoJSON(http.MethodPost, path+q, who("ann", 6000), app); r.Status != http.StatusBadRequest {
			t.Fatalf("%s: want 400, got %d: %s", q, r.Status, r.Body)
		}
	}
	wantError(t, e.DoJSON(http.MethodPost, path, map[string]any{"order": map[string]any{"amount": "lots"}}, app),
		http.StatusBadRequest, "invalid_payload", "amount")
	// Nothing written: the unknown customer was not created.
	must(t, e.DoJSON(http.MethodGet, "/v1/customers/newbie", nil, other), http.StatusNotFound)
}

// TestLegacyCampaignQualification: the code campaigns whose codes the
// customer and order qualify for, ordered and limited; promotion,
// standalone and codeless campaigns are not listed, nor another
// project's; bad input is a 400.
func TestLegacyCampaignQualification(t *testing.T) {
	s := newLegacyShop(t)
	e, app := s.e, s.app
	off := map[string]any{"type": "AMOUNT", "amount_off": 100}
	discountCode(t, e, app, "VIP coupons", "VC-1", off, nil)
	s.assign(t, s.vip, map[string]any{"campaign": "VIP coupons"})
	discountCode(t, e, app, "Big coupons", "BC-1", off, nil)
	s.assign(t, s.big, map[string]any{"campaign": "Big coupons"})
	discountCode(t, e, app, "Open coupons", "OC-1", off, nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Empty coupons", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": off}}, app), http.StatusOK)
	s.standalone(t, app, "ANY")
	promotionCampaign(t, e, app, "Promo", amountTier("Tier", 100))
	other := resttest.App(e.NewProject("project B"))

	const path = "/v1/campaigns/qualification"
	wantList(t, "ann, big order", s.examine(t, app, path, "?order=campaign", who("ann", 6000)),
		"Big coupons", "Open coupons", "VIP coupons")
	wantList(t, "limit", s.examine(t, app, path, "?order=-campaign&limit=2", who("ann", 6000)), "VIP coupons", "Open coupons")
	wantList(t, "bob, small order", s.examine(t, app, path, "?order=campaign", who("bob", 1000)), "Open coupons")
	wantList(t, "bob, audience only", s.examine(t, app, path, "?order=campaign&audienceRulesOnly=true", who("bob", 1000)),
		"Big coupons", "Open coupons")
	wantList(t, "project B", s.examine(t, other, path, "", who("ann", 6000)))

	for _, q := range []string{"?limit=0", "?limit=51", "?order=name", "?audienceRulesOnly=2"} {
		if r := e.DoJSON(http.MethodPost, path+q, who("ann", 6000), app); r.Status != http.StatusBadRequest {
			t.Fatalf("%s: want 400, got %d: %s", q, r.Status, r.Body)
		}
	}
}

// TestLegacyQualificationsOverGraphQL: the GraphQL fields answer as the
// REST routes, and their limit is checked there too.
func TestLegacyQualificationsOverGraphQL(t *testing.T) {
	s := newLegacyShop(t)
	e, app := s.e, s.app
	s.standalone(t, app, "VIP10")
	s.assign(t, s.vip, map[string]any{"voucher": "VIP10"})
	s.standalone(t, app, "ANY")
	discountCode(t, e, app, "VIP coupons", "VC-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	s.assign(t, s.vip, map[string]any{"campaign": "VIP coupons"})
	const q = `query($in: LegacyQualificationInput!) {
		voucherQualification(input: $in) { id total data { code } }
		campaignQualification(input: $in) { total data { name } } }`
	for _, c := range []struct {
		customer     string
		codes, camps int
	}{{"ann", 2, 1}, {"bob", 1, 0}} {
		got := e.GraphQL(app, q, map[string]any{"in": map[string]any{"customer": map[string]any{"sourceID": c.customer},
			"order": map[string]any{"amount": 6000}, "orderBy": "code"}})
		if len(got.Errors) > 0 {
			t.Fatalf("%s: %v", c.customer, got.Errors)
		}
		vq := got.Data["voucherQualification"].(map[string]any)
		cq := got.Data["campaignQualification"].(map[string]any)
		if int(num(vq["total"])) != c.codes || len(vq["data"].([]any)) != c.codes || int(num(cq["total"])) != c.camps {
			t.Fatalf("%s: want %d codes and %d campaigns, got %v", c.customer, c.codes, c.camps, got.Data)
		}
	}
	bad := e.GraphQL(app, `{ voucherQualification(input: {limit: 51}) { total } }`, nil)
	if len(bad.Errors) == 0 || bad.Errors[0].Extensions["key"] != "invalid_query_params" {
		t.Fatalf("limit 51: want invalid_query_params, got %+v", bad)
	}
}

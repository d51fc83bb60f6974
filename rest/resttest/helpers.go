package resttest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// Assertions and fixtures shared by the test packages of rest and of the
// areas moved out of it (rest/management first).

// SystemCtx reads across projects, to check what the database holds.
func SystemCtx() context.Context { return viewer.NewSystemContext(context.Background()) }

// Must asserts a status and returns the JSON body.
func Must(t testing.TB, r Response, status int) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("want %d, got %d: %s", status, r.Status, r.Body)
	}
	return r.JSON(t)
}

// WantError asserts an error response's status, key and that its details mention want.
func WantError(t testing.TB, r Response, status int, key, want string) {
	t.Helper()
	body := Must(t, r, status)
	details, _ := body["details"].(string)
	if body["key"] != key || !strings.Contains(details, want) {
		t.Fatalf("want %d %s mentioning %q, got %s", status, key, want, r.Body)
	}
}

// WantErrorKey asserts an error response's status and key and returns its body.
func WantErrorKey(t testing.TB, r Response, status int, key string) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	body := r.JSON(t)
	if body["key"] != key {
		t.Fatalf("key %v, want %s: %s", body["key"], key, r.Body)
	}
	return body
}

// MustJSON is v as JSON ("" when it cannot be marshalled), to compare values.
func MustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// DiscountCode makes a standalone-like discount campaign with one code.
func DiscountCode(t testing.TB, e *Env, h Headers, campaign, code string, discount map[string]any, quantity any) map[string]any {
	t.Helper()
	Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": campaign, "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": discount}}, h), http.StatusOK)
	body := map[string]any{"code": code}
	if quantity != nil {
		body["redemption"] = map[string]any{"quantity": quantity}
	}
	return Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/"+url.PathEscape(campaign)+"/vouchers", body, h), http.StatusOK)
}

// Cart is the reference's cart: T-shirt 3000, Pen 2000, Mug 1000.
func Cart() map[string]any {
	return map[string]any{"items": []any{
		map[string]any{"product_id": "tshirt", "quantity": 1, "price": 3000},
		map[string]any{"product_id": "pen", "quantity": "1", "price": 2000},
		map[string]any{"product_id": "mug", "quantity": 1, "price": 1000},
	}}
}

// WantNotFound asserts the real service's 404 for a resource of
// resourceType: the resource_id echoes what the caller sent.
func WantNotFound(t testing.TB, r Response, resourceType, sent string) {
	t.Helper()
	body := Must(t, r, http.StatusNotFound)
	if body["code"] != float64(404) || body["key"] != "not_found" || body["message"] != "Resource not found" ||
		body["details"] != "Cannot find "+resourceType+" with id "+sent || body["resource_id"] != sent ||
		body["resource_type"] != resourceType || body["request_id"] == nil {
		t.Errorf("404 body = %s", r.Body)
	}
}

// Count is the total of a v1 list (with include_total where a list needs it).
func Count(t testing.TB, e *Env, path string, h Headers) float64 {
	t.Helper()
	n, _ := Must(t, e.Do(http.MethodGet, path, nil, h), http.StatusOK)["total"].(float64)
	return n
}

// PromotionCampaign creates a PROMOTION campaign with inline tiers and
// returns the campaign and its tiers (by hierarchy).
func PromotionCampaign(t testing.TB, e *Env, h Headers, name string, tiers ...map[string]any) (map[string]any, []map[string]any) {
	t.Helper()
	body := map[string]any{"name": name, "campaign_type": "PROMOTION", "type": "STATIC"}
	if len(tiers) > 0 {
		body["promotion"] = map[string]any{"tiers": tiers}
	}
	cmp := Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", body, h), http.StatusOK)
	list := Must(t, e.Do(http.MethodGet, "/v1/promotions/"+cmp["id"].(string)+"/tiers", nil, h), http.StatusOK)
	var out []map[string]any
	for _, x := range list["tiers"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return cmp, out
}

// AmountTier is a promotion tier with an AMOUNT discount of off.
func AmountTier(name string, off int) map[string]any {
	return map[string]any{"name": name, "banner": name + "!", "action": map[string]any{"discount": map[string]any{"type": "AMOUNT", "amount_off": off}}}
}

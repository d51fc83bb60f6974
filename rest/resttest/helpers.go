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

package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// On an update, an explicit JSON null clears a field and an absent key
// leaves it (rest/internal/httpkit/decode.go records the nulls, shape.Nulls carries them).
func TestUpdateNullClearsAbsentKeeps(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	discountCode(t, e, app, "Winter", "WIN-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, 3)

	t.Run("voucher", func(t *testing.T) {
		set := must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/WIN-1", map[string]any{
			"start_date": "2030-01-01T00:00:00Z", "expiration_date": "2031-01-01T00:00:00Z",
			"additional_info": "printed", "metadata": map[string]any{"shelf": "A"},
			"validity_day_of_week": []int{1, 2},
		}, app), http.StatusOK)
		if set["expiration_date"] == nil || set["start_date"] == nil || set["additional_info"] != "printed" {
			t.Fatalf("voucher after setting = %v", set)
		}
		cleared := must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/WIN-1", map[string]any{
			"expiration_date": nil, "additional_info": nil, "validity_day_of_week": nil,
		}, app), http.StatusOK)
		if cleared["expiration_date"] != nil || cleared["additional_info"] != nil || cleared["validity_day_of_week"] != nil {
			t.Errorf("null did not clear: %v", cleared)
		}
		if cleared["start_date"] != "2030-01-01T00:00:00.000Z" || mustJSON(cleared["metadata"]) != `{"shelf":"A"}` {
			t.Errorf("an absent key changed its field: start_date %v, metadata %v", cleared["start_date"], cleared["metadata"])
		}
		got := must(t, e.Do(http.MethodGet, "/v1/vouchers/WIN-1", nil, app), http.StatusOK)
		if got["expiration_date"] != nil || got["start_date"] == nil {
			t.Errorf("stored voucher = %v", got)
		}
		if md := must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/WIN-1", map[string]any{"metadata": nil, "start_date": nil}, app),
			http.StatusOK); mustJSON(md["metadata"]) != `{}` || md["start_date"] != nil {
			t.Errorf("metadata and start_date null = %v, %v", md["metadata"], md["start_date"])
		}
	})

	t.Run("campaign", func(t *testing.T) {
		set := must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Winter", map[string]any{
			"description": "cold", "expiration_date": "2031-01-01T00:00:00Z", "activity_duration_after_publishing": "P24D",
			"metadata": map[string]any{"region": "EU"},
		}, app), http.StatusOK)
		if set["description"] != "cold" || set["expiration_date"] == nil {
			t.Fatalf("campaign after setting = %v", set)
		}
		cleared := must(t, e.DoJSON(http.MethodPut, "/v1/campaigns/Winter", map[string]any{
			"description": nil, "expiration_date": nil,
		}, app), http.StatusOK)
		if cleared["description"] != nil || cleared["expiration_date"] != nil {
			t.Errorf("null did not clear: description %v, expiration_date %v", cleared["description"], cleared["expiration_date"])
		}
		if cleared["activity_duration_after_publishing"] != "P24D" || mustJSON(cleared["metadata"]) != `{"region":"EU"}` {
			t.Errorf("an absent key changed its field: %v, %v", cleared["activity_duration_after_publishing"], cleared["metadata"])
		}
	})

	t.Run("customer", func(t *testing.T) {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{
			"source_id": "ann", "name": "Ann", "email": "ann@example.com", "phone": "+48 123",
			"address": map[string]any{"city": "Warsaw"}, "metadata": map[string]any{"tier": "gold"},
		}, app), http.StatusOK)
		cleared := must(t, e.DoJSON(http.MethodPut, "/v1/customers/ann", map[string]any{
			"name": nil, "address": nil, "metadata": nil,
		}, app), http.StatusOK)
		if cleared["name"] != nil || cleared["address"] != nil {
			t.Errorf("null did not clear: name %v, address %v", cleared["name"], cleared["address"])
		}
		if _, has := cleared["metadata"]; has {
			t.Errorf("metadata null left metadata %v (an empty one is left out)", cleared["metadata"])
		}
		if cleared["email"] != "ann@example.com" || cleared["phone"] != "+48 123" {
			t.Errorf("an absent key changed its field: email %v, phone %v", cleared["email"], cleared["phone"])
		}
	})

	t.Run("product and SKU", func(t *testing.T) {
		p := must(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{
			"source_id": "shoe", "name": "Shoe", "price": 5000, "image_url": "https://img.example.com/shoe.png",
			"metadata": map[string]any{"color": "red"},
		}, app), http.StatusOK)
		cleared := must(t, e.DoJSON(http.MethodPut, "/v1/products/shoe", map[string]any{"price": nil, "metadata": nil}, app),
			http.StatusOK)
		if cleared["price"] != nil || mustJSON(cleared["metadata"]) != `{}` {
			t.Errorf("null did not clear: price %v, metadata %v", cleared["price"], cleared["metadata"])
		}
		if cleared["name"] != "Shoe" || cleared["image_url"] != p["image_url"] {
			t.Errorf("an absent key changed its field: name %v, image_url %v", cleared["name"], cleared["image_url"])
		}
		must(t, e.DoJSON(http.MethodPost, "/v1/products/shoe/skus", map[string]any{
			"source_id": "shoe-42", "sku": "Shoe 42", "price": 5100, "currency": "EUR",
		}, app), http.StatusOK)
		sku := must(t, e.DoJSON(http.MethodPut, "/v1/products/shoe/skus/shoe-42", map[string]any{"currency": nil}, app),
			http.StatusOK)
		if sku["currency"] != nil || sku["price"] != float64(5100) || sku["sku"] != "Shoe 42" {
			t.Errorf("SKU after currency null = %v", sku)
		}
	})
}

package rest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestRedemptionFilterLookups: filters[related_object_id] and
// filters[voucher_code] with $is / $in look the redeemables up first
// (graph/redemption list_filter_lookups.go); what they keep is what the
// column says, whatever the lookup finds: a promotion tier's entries
// (found through its campaign), a mix of a tier and a code, a deleted
// tier's entries (which stay in the history), and a deleted code (whose
// entries go with it, so neither $is nor a pattern finds any).
func TestRedemptionFilterLookups(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	_, tiers := promotionCampaign(t, e, app, "Summer", amountTier("Five off", 500), amountTier("Ten off", 1000))
	five, ten := tiers[0]["id"].(string), tiers[1]["id"].(string)
	discountCode(t, e, app, "Tenner", "TEN-A", map[string]any{"type": "AMOUNT", "amount_off": 1000}, nil)
	tenA := must(t, e.Do(http.MethodGet, "/v1/vouchers/TEN-A", nil, app), http.StatusOK)["id"].(string)
	order := map[string]any{"order": map[string]any{"amount": 5000}}
	must(t, redeemOne(e, app, tierRedeemable(five), order), http.StatusOK)
	waitABit()
	must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "TEN-A"}, order), http.StatusOK)
	waitABit()
	must(t, redeemOne(e, app, tierRedeemable(five), order), http.StatusOK)
	waitABit()
	must(t, redeemOne(e, app, tierRedeemable(ten), order), http.StatusOK)

	// Each entry as object/result/code (listedRedemptions), newest first.
	tierEntry, codeEntry := "redemption/SUCCESS/-/-", "redemption/SUCCESS/TEN-A/-"
	check := func(query string, want ...string) {
		t.Helper()
		got, total := listedRedemptions(t, e, app, query+"&limit=100")
		if !slices.Equal(got, want) || total != len(want) {
			t.Errorf("?%s: %v (total %d), want %v", query, got, total, want)
		}
	}
	check(resttest.FilterQuery("related_object_id", "$is", five), tierEntry, tierEntry)
	check(resttest.FilterQuery("related_object_id", "$in", five, tenA), tierEntry, codeEntry, tierEntry)
	check(resttest.FilterQuery("related_object_id", "$in", ten, "promo_nope"), tierEntry)
	check(resttest.FilterQuery("voucher_code", "$in", "TEN-A", "NOPE"), codeEntry)

	// A deleted tier's entries stay in the history and its filter still
	// finds them (the walk: no tier left to name their campaign).
	if r := e.Do(http.MethodDelete, "/v1/promotions/tiers/"+five, nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("deleting tier %s: %d %s", five, r.Status, r.Body)
	}
	check(resttest.FilterQuery("related_object_id", "$is", five), tierEntry, tierEntry)
	check(resttest.FilterQuery("related_object_id", "$in", five, ten), tierEntry, tierEntry, tierEntry)

	// A deleted code's entries go with it: no filter finds them, the
	// looked-up $is as the column's $starts_with.
	if r := e.Do(http.MethodDelete, "/v1/vouchers/TEN-A?force=true", nil, app); r.Status != http.StatusNoContent {
		t.Fatalf("deleting TEN-A: %d %s", r.Status, r.Body)
	}
	check(resttest.FilterQuery("voucher_code", "$is", "TEN-A"))
	check(resttest.FilterQuery("voucher_code", "$starts_with", "TEN"))
	check(resttest.FilterQuery("related_object_id", "$is", tenA))
}

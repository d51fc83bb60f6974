package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestReferralConversionUndoneByRollback: rolling back the redemption that
// converted a referee undoes the conversion exactly once — the referee's
// referrals and customer.referred activity are gone, a second rollback is
// refused — while the rewards it issued stay (reference U16: the
// referrer's coupon, the referee's points); a later redemption converts
// the referee again without rewarding anyone twice, and rolling that one
// back undoes it again.
func TestReferralConversionUndoneByRollback(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	coupon := f.createReward(t, map[string]any{"name": "Coupon", "parameters": map[string]any{"campaign": map[string]any{"id": f.coupons}}})["id"].(string)
	rp := refereeProgram(map[string]any{"conversion_event_type": "redemption", "referral_tiers": []any{map[string]any{"name": "Each friend",
		"conversions": map[string]any{"type": "EACH"}, "rewards": []any{map[string]any{"id": coupon}}}}}, "LOYALTY_CARD", f.points, 50)
	code, referrer := referralProgram(t, e, f.app, "Undo friends", rp)
	redeem := func() string {
		t.Helper()
		return must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{
			"customer": map[string]any{"source_id": "friend"}, "order": map[string]any{"amount": 1000}}, f.app), http.StatusOK)["id"].(string)
	}
	rollback := func(id string) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/redemptions/"+id+"/rollback", map[string]any{"reason": "returned"}, f.app)
	}
	check := func(step string, converted bool) {
		t.Helper()
		refs := must(t, e.Do(http.MethodGet, "/v1/customers/friend", nil, f.app), http.StatusOK)["referrals"]
		referred := must(t, e.Do(http.MethodGet, "/v1/customers/friend/activities?type=customer.referred", nil, f.app), http.StatusOK)
		if converted != (refs != nil) || referred["total"] != map[bool]float64{true: 1, false: 0}[converted] {
			t.Errorf("%s: converted %v, but referrals %v and %v customer.referred", step, converted, refs, referred["total"])
		}
		if n := couponsOf(e, f.coupons, referrer); n != 1 {
			t.Errorf("%s: referrer holds %d coupons, want 1 (rewarded once, kept)", step, n)
		}
		if cards := heldCards(t, e, f.app, f.points, "friend"); len(cards) != 1 || cards[0].LoyaltyCard.Balance != 50 {
			t.Errorf("%s: referee's cards %v, want one with 50 points (rewarded once, kept)", step, cards)
		}
		if n := e.DB.Client.ReferralConversion.Query().Where(referralconversion.ReferrerID(referrer)).CountX(systemCtx()); n != 1 {
			t.Errorf("%s: %d conversion rows, want 1", step, n)
		}
	}

	first := redeem()
	check("converted", true)
	must(t, rollback(first), http.StatusOK)
	check("rolled back", false)
	wantErrorKey(t, rollback(first), http.StatusBadRequest, "already_rolled_back")
	check("rolled back twice", false)
	second := redeem()
	check("converted again", true)
	must(t, rollback(second), http.StatusOK)
	check("rolled back again", false)
}

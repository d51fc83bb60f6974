package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/ent/v1reward"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/rest/resttest"
)

// referralProgram creates a referral campaign named name whose program is
// rp, and publishes one of its codes to the customer "referrer".
func referralProgram(t *testing.T, e *resttest.Env, h resttest.Headers, name string, rp map[string]any) (code, referrerID string) {
	t.Helper()
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": name, "campaign_type": "REFERRAL_PROGRAM",
		"type": "AUTO_UPDATE", "referral_program": rp, "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "is_referral_code": true,
			"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, h), http.StatusOK)
	code = memberCard(t, e, h, name, "referrer")
	referrerID = must(t, e.Do(http.MethodGet, "/v1/customers/referrer", nil, h), http.StatusOK)["id"].(string)
	return code, referrerID
}

// couponsOf counts the vouchers of a campaign held by a customer.
func couponsOf(e *resttest.Env, campaignID, customerID string) int {
	return e.DB.Client.Voucher.Query().Where(voucher.CampaignID(campaignID), voucher.HolderID(customerID)).CountX(systemCtx())
}

// TestReferralTiersRewardTheReferrer: a referral program converting on
// redemption rewards its referrer per its tiers — a coupon for each new
// referee, a mug when the second one converts — once per referee (a
// referee redeeming again converts nothing), with a customer.rewarded
// event per reward; the referrer cannot redeem their own code; malformed
// tiers are refused and create no campaign.
func TestReferralTiersRewardTheReferrer(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	createHook(t, e, mk, "http://127.0.0.1:9/never", "customer.rewarded")
	f := newRewardFixture(t, e, 0)
	coupon := f.createReward(t, map[string]any{"name": "Coupon", "parameters": map[string]any{"campaign": map[string]any{"id": f.coupons}}})["id"].(string)
	mug := f.createReward(t, map[string]any{"name": "Mug", "stock": 10, "parameters": map[string]any{"product": map[string]any{"id": f.product}}})["id"].(string)
	tiers := func(each, atLeast map[string]any) map[string]any {
		return map[string]any{"conversion_event_type": "redemption", "referral_tiers": []any{each, atLeast}}
	}
	each := map[string]any{"name": "Each friend", "conversions": map[string]any{"type": "EACH"}, "rewards": []any{map[string]any{"id": coupon}}}
	two := map[string]any{"name": "Two friends", "conversions": map[string]any{"type": "AT_LEAST", "referees": 2}, "rewards": []any{map[string]any{"id": mug}}}

	bad := func(rp map[string]any, status int, key string) {
		t.Helper()
		wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Broken", "campaign_type": "REFERRAL_PROGRAM",
			"type": "AUTO_UPDATE", "referral_program": rp, "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "is_referral_code": true,
				"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, f.app), status, key)
	}
	bad(tiers(each, map[string]any{"conversions": map[string]any{"type": "SOMETIMES"}, "rewards": []any{map[string]any{"id": mug}}}), http.StatusBadRequest, "invalid_payload")
	bad(tiers(each, map[string]any{"conversions": map[string]any{"type": "AT_LEAST", "referees": 0.5}, "rewards": []any{map[string]any{"id": mug}}}), http.StatusBadRequest, "invalid_payload")
	bad(tiers(each, map[string]any{"conversions": map[string]any{"type": "EACH"}, "rewards": []any{map[string]any{"id": "rew_nope"}}}), http.StatusNotFound, "not_found")
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/campaigns/Broken", nil, f.app), http.StatusNotFound, "not_found")

	code, referrer := referralProgram(t, e, f.app, "Friends", tiers(each, two))
	redeem := func(customer string) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{
			"customer": map[string]any{"source_id": customer}, "order": map[string]any{"amount": 1000}}, f.app)
	}
	wantErrorKey(t, redeem("referrer"), http.StatusBadRequest, "referrer_not_permitted_to_redeem")
	mugRedeemed := func() int64 {
		return e.DB.Client.V1Reward.Query().Where(v1reward.ID(mug)).OnlyX(systemCtx()).Redeemed
	}
	for i, step := range []struct {
		referee          string
		coupons, mugsOut int
	}{{"friend-1", 1, 0}, {"friend-1", 1, 0}, {"friend-2", 2, 1}, {"friend-3", 3, 1}} {
		must(t, redeem(step.referee), http.StatusOK)
		if n, m := couponsOf(e, f.coupons, referrer), mugRedeemed(); n != step.coupons || m != int64(step.mugsOut) {
			t.Fatalf("step %d (%s): referrer holds %d coupons, %d mugs out; want %d and %d", i, step.referee, n, m, step.coupons, step.mugsOut)
		}
	}
	if n := e.DB.Client.ReferralConversion.Query().Where(referralconversion.ReferrerID(referrer)).CountX(systemCtx()); n != 3 {
		t.Errorf("%d conversions, want 3", n)
	}
	if n := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type("customer.rewarded")).CountX(systemCtx()); n != 4 {
		t.Errorf("%d customer.rewarded events, want 4", n)
	}
}

// TestReferralConversionRaceRewardsOnce: the same referee's conversion
// event sent ten times at once over two server processes converts once
// and rewards the referrer once.
func TestReferralConversionRaceRewardsOnce(t *testing.T) {
	e, _, servers := twoServers(t)
	app := resttest.App(e.Project)
	f := newRewardFixture(t, e, 0)
	defineEvent(t, e, app, "signed_up", nil)
	coupon := f.createReward(t, map[string]any{"name": "Coupon", "parameters": map[string]any{"campaign": map[string]any{"id": f.coupons}}})["id"].(string)
	code, referrer := referralProgram(t, e, app, "Friends", map[string]any{"conversion_event_type": "custom_event",
		"custom_event": map[string]any{"name": "signed_up"}, "referral_tiers": []any{map[string]any{"name": "Each friend",
			"conversions": map[string]any{"type": "EACH"}, "rewards": []any{map[string]any{"id": coupon}}}}})
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "friend"}, app), http.StatusOK)
	resps := burst(e, servers, app, 10, func(int) (string, any) {
		return "/v1/events", map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "friend"},
			"referral": map[string]any{"code": code}}
	})
	wantOutcomes(t, "conversion events", resps, map[string]int{"200": 10})
	if n := couponsOf(e, f.coupons, referrer); n != 1 {
		t.Errorf("referrer holds %d coupons, want 1", n)
	}
	if n := e.DB.Client.ReferralConversion.Query().CountX(systemCtx()); n != 1 {
		t.Errorf("%d conversions, want 1", n)
	}
}

// TestReferralTiersLimitedToASegment: a tier naming a segment rewards only
// a referrer who is in it (the other tier, for another segment, gives
// nothing); an unknown segment is 404 and stores no campaign.
func TestReferralTiersLimitedToASegment(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	coupon := f.createReward(t, map[string]any{"name": "Coupon", "parameters": map[string]any{"campaign": map[string]any{"id": f.coupons}}})["id"].(string)
	mug := f.createReward(t, map[string]any{"name": "Mug", "stock": 10, "parameters": map[string]any{"product": map[string]any{"id": f.product}}})["id"].(string)
	for _, c := range []string{"referrer", "someone"} {
		mustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": c}, f.app)
	}
	ambassadors := mustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Ambassadors", "type": "static", "customers": []string{"referrer"}}, f.app)["id"]
	others := mustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "Others", "type": "static", "customers": []string{"someone"}}, f.app)["id"]
	tier := func(segment any, reward string) map[string]any {
		return map[string]any{"conversions": map[string]any{"type": "EACH"}, "segment": map[string]any{"id": segment},
			"rewards": []any{map[string]any{"id": reward}}}
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Broken", "campaign_type": "REFERRAL_PROGRAM",
		"type": "AUTO_UPDATE", "referral_program": map[string]any{"conversion_event_type": "redemption", "referral_tiers": []any{tier("seg_nope", coupon)}},
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "is_referral_code": true, "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}},
		f.app), http.StatusNotFound, "not_found")
	code, referrer := referralProgram(t, e, f.app, "Friends", map[string]any{"conversion_event_type": "redemption",
		"referral_tiers": []any{tier(ambassadors, coupon), tier(others, mug)}})
	must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{
		"customer": map[string]any{"source_id": "friend-1"}, "order": map[string]any{"amount": 1000}}, f.app), http.StatusOK)
	if n := couponsOf(e, f.coupons, referrer); n != 1 {
		t.Errorf("referrer holds %d coupons, want 1", n)
	}
	if m := e.DB.Client.V1Reward.Query().Where(v1reward.ID(mug)).OnlyX(systemCtx()).Redeemed; m != 0 {
		t.Errorf("%d mugs given for a segment the referrer is not in", m)
	}
}

package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/rest/resttest"
)

// heldCards are the vouchers of a campaign a customer (by source_id) holds.
func heldCards(t *testing.T, e *resttest.Env, h resttest.Headers, campaignID, sourceID string) []*ent.Voucher {
	t.Helper()
	id := must(t, e.Do(http.MethodGet, "/v1/customers/"+sourceID, nil, h), http.StatusOK)["id"].(string)
	return e.DB.Client.Voucher.Query().Where(voucher.CampaignID(campaignID), voucher.HolderID(id)).AllX(systemCtx())
}

// refereeProgram is a referral_program converting on conv whose referee
// reward is amount of typ from the campaign parent.
func refereeProgram(conv map[string]any, typ, parent string, amount any) map[string]any {
	rp := map[string]any{"referee_reward": map[string]any{"type": typ, "amount": amount,
		"related_object_parent": map[string]any{"id": parent, "object": "CAMPAIGN"}}}
	for k, v := range conv {
		rp[k] = v
	}
	return rp
}

// TestRefereeRewardOncePerConversion: a double-sided program gives the
// referee its referee_reward — 50 points on a loyalty card published to
// them, or 25.00 in credits on a gift card — once per conversion, however
// often the referee redeems the code or sends the conversion event; the
// points show in the referee's activities. Malformed referee rewards are
// refused and create no campaign.
func TestRefereeRewardOncePerConversion(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	byRedemption := map[string]any{"conversion_event_type": "redemption"}
	bad := func(rp map[string]any, status int, key string) {
		t.Helper()
		wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Broken", "campaign_type": "REFERRAL_PROGRAM",
			"type": "AUTO_UPDATE", "referral_program": rp, "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "is_referral_code": true,
				"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, f.app), status, key)
	}
	bad(refereeProgram(byRedemption, "CASH", f.points, 50), http.StatusBadRequest, "invalid_payload")
	bad(refereeProgram(byRedemption, "LOYALTY_CARD", f.points, 0), http.StatusBadRequest, "invalid_payload")
	bad(refereeProgram(byRedemption, "LOYALTY_CARD", f.points, 2.5), http.StatusBadRequest, "invalid_payload")
	bad(refereeProgram(byRedemption, "LOYALTY_CARD", f.gifts, 50), http.StatusBadRequest, "invalid_payload")
	bad(refereeProgram(byRedemption, "GIFT_VOUCHER", "camp_nope", 50), http.StatusNotFound, "not_found")
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/campaigns/Broken", nil, f.app), http.StatusNotFound, "not_found")

	code, _ := referralProgram(t, e, f.app, "Double", refereeProgram(byRedemption, "LOYALTY_CARD", f.points, 50))
	stored := must(t, e.Do(http.MethodGet, "/v1/campaigns/Double", nil, f.app), http.StatusOK)["referral_program"].(map[string]any)
	if p := stored["referee_reward"].(map[string]any)["related_object_parent"].(map[string]any); p["id"] != f.points || p["name"] != "Points" {
		t.Errorf("stored referee reward parent %v", p)
	}
	for range 2 {
		must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+code+"/redemption", map[string]any{
			"customer": map[string]any{"source_id": "friend-1"}, "order": map[string]any{"amount": 1000}}, f.app), http.StatusOK)
	}
	cards := heldCards(t, e, f.app, f.points, "friend-1")
	if len(cards) != 1 || cards[0].LoyaltyCard == nil || cards[0].LoyaltyCard.Balance != 50 {
		t.Fatalf("referee's loyalty cards %v, want one with 50 points", cards)
	}
	added := must(t, e.Do(http.MethodGet, "/v1/customers/friend-1/activities?type=customer.voucher.loyalty_card.points_added", nil, f.app), http.StatusOK)
	if added["total"] != float64(1) {
		t.Errorf("referee's points_added activities %s", mustJSON(added))
	}
	if refs := must(t, e.Do(http.MethodGet, "/v1/customers/friend-1", nil, f.app), http.StatusOK)["referrals"].(map[string]any); refs["total"] != float64(1) {
		t.Errorf("referee's referrals %v", refs)
	}

	defineEvent(t, e, f.app, "signed_up", nil)
	giftCode, _ := referralProgram(t, e, f.app, "Gift friends", refereeProgram(map[string]any{"conversion_event_type": "custom_event",
		"custom_event": map[string]any{"name": "signed_up"}}, "GIFT_VOUCHER", f.gifts, 2500))
	for range 2 {
		must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "friend-2"},
			"referral": map[string]any{"code": giftCode}}, f.app), http.StatusOK)
	}
	gifts := heldCards(t, e, f.app, f.gifts, "friend-2")
	if len(gifts) != 1 || gifts[0].Gift == nil || gifts[0].Gift.Balance != 2500 {
		t.Fatalf("referee's gift cards %v, want one with 2500 credits", gifts)
	}
}

// TestRefereeRewardRaceRewardsOnce: the same conversion event sent ten
// times at once over two server processes gives the referee one card with
// the referee reward once.
func TestRefereeRewardRaceRewardsOnce(t *testing.T) {
	e, app, servers := twoServers(t)
	f := newRewardFixture(t, e, 0)
	defineEvent(t, e, app, "signed_up", nil)
	code, _ := referralProgram(t, e, app, "Double", refereeProgram(map[string]any{"conversion_event_type": "custom_event",
		"custom_event": map[string]any{"name": "signed_up"}}, "LOYALTY_CARD", f.points, 50))
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "friend"}, app), http.StatusOK)
	resps := burst(e, servers, app, 10, func(int) (string, any) {
		return "/v1/events", map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "friend"},
			"referral": map[string]any{"code": code}}
	})
	wantOutcomes(t, "conversion events", resps, map[string]int{"200": 10})
	cards := heldCards(t, e, app, f.points, "friend")
	if len(cards) != 1 || cards[0].LoyaltyCard.Balance != 50 {
		t.Fatalf("referee's cards %v, want one with 50 points", cards)
	}
	if n := e.DB.Client.VoucherTransaction.Query().Where(vouchertransaction.VoucherID(cards[0].ID),
		vouchertransaction.TypeEQ(vouchertransaction.TypePOINTS_ADDITION)).CountX(systemCtx()); n != 1 {
		t.Errorf("%d points additions, want 1", n)
	}
}

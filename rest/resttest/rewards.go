package resttest

import (
	"net/http"
	"testing"
)

// RewardFixture is a project with the campaigns and the product v1
// rewards name (rest/rewards' tests and rest's loyalty and referral tests).
type RewardFixture struct {
	E                                  *Env
	App                                Headers
	Coupons, Gifts, Points, Other, Ref string // campaign IDs
	Product                            string
}

// NewRewardFixture makes a DISCOUNT_COUPONS campaign (Coupons), a gift
// card campaign (Gifts), two loyalty campaigns (Points, whose cards start
// with cardPoints points, and Other points), a referral campaign and a
// product.
func NewRewardFixture(t testing.TB, e *Env, cardPoints int) *RewardFixture {
	t.Helper()
	f := &RewardFixture{E: e, App: App(e.Project)}
	f.Coupons = Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Coupons", "campaign_type": "DISCOUNT_COUPONS",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 500}}}, f.App), http.StatusOK)["id"].(string)
	f.Gifts = Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Gifts", "campaign_type": "GIFT_VOUCHERS",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 0}}}, f.App), http.StatusOK)["id"].(string)
	f.Points = LoyaltyCampaignV1(t, e, f.App, "Points", cardPoints)
	f.Other = LoyaltyCampaignV1(t, e, f.App, "Other points", 0)
	f.Ref = Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Refer", "campaign_type": "REFERRAL_PROGRAM",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "is_referral_code": true,
			"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, f.App), http.StatusOK)["id"].(string)
	f.Product = Must(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "mug", "name": "Mug", "price": 1500}, f.App), http.StatusOK)["id"].(string)
	return f
}

// LoyaltyCampaignV1 makes an AUTO_UPDATE v1 loyalty campaign whose cards
// start with points.
func LoyaltyCampaignV1(t testing.TB, e *Env, h Headers, name string, points int) string {
	t.Helper()
	return Must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": name, "campaign_type": "LOYALTY_PROGRAM",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": points}}}, h), http.StatusOK)["id"].(string)
}

// MustNoContent fails unless the answer is 204 with no body.
func MustNoContent(t testing.TB, r Response) {
	t.Helper()
	if r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Fatalf("want 204 and no body, got %d %s", r.Status, r.Body)
	}
}

// CreateReward creates a v1 reward (POST /v1/rewards, 200) and returns it.
func (f *RewardFixture) CreateReward(t testing.TB, body map[string]any) map[string]any {
	t.Helper()
	return Must(t, f.E.DoJSON(http.MethodPost, "/v1/rewards", body, f.App), http.StatusOK)
}

// Assign assigns the reward to a loyalty campaign for points and returns
// the assignment.
func (f *RewardFixture) Assign(t testing.TB, rewardID, campaignID string, points int) map[string]any {
	t.Helper()
	return Must(t, f.E.DoJSON(http.MethodPost, "/v1/rewards/"+rewardID+"/assignments", map[string]any{"campaign": campaignID,
		"parameters": map[string]any{"loyalty": map[string]any{"points": points}}}, f.App), http.StatusOK)
}

// RewardTotal is the total of GET /v1/rewards.
func (f *RewardFixture) RewardTotal(t testing.TB) float64 {
	t.Helper()
	total, _ := Must(t, f.E.Do(http.MethodGet, "/v1/rewards", nil, f.App), http.StatusOK)["total"].(float64)
	return total
}

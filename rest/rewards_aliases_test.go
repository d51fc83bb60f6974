package rest_test

import (
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// Transitional: the v1 reward fixture moved to resttest with the rewards'
// tests (rest/rewards); these names keep rest's loyalty and referral tests
// that use it unchanged.

// rewardFixture is resttest.RewardFixture under its old field names.
type rewardFixture struct {
	*resttest.RewardFixture
	e                                  *resttest.Env
	app                                resttest.Headers
	coupons, gifts, points, other, ref string // campaign IDs
	product                            string
}

func newRewardFixture(t *testing.T, e *resttest.Env, cardPoints int) *rewardFixture {
	t.Helper()
	f := resttest.NewRewardFixture(t, e, cardPoints)
	return &rewardFixture{RewardFixture: f, e: f.E, app: f.App, coupons: f.Coupons, gifts: f.Gifts, points: f.Points,
		other: f.Other, ref: f.Ref, product: f.Product}
}

func (f *rewardFixture) createReward(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return f.CreateReward(t, body)
}

func (f *rewardFixture) assign(t *testing.T, rewardID, campaignID string, points int) map[string]any {
	t.Helper()
	return f.Assign(t, rewardID, campaignID, points)
}

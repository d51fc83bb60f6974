package rest_test

import (
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// Transitional: the v1 loyalty fixtures moved to resttest with the v1
// loyalty tests (rest/loyaltyv1); these names keep rest's tests that set a
// v1 program up for another area (exports, trash bin, null clearing,
// referral tiers) unchanged.

func newV1Program(t testing.TB, e *resttest.Env, h resttest.Headers, name string, points int) map[string]any {
	t.Helper()
	return resttest.NewV1Program(t, e, h, name, points)
}

func addV1Member(t testing.TB, e *resttest.Env, h resttest.Headers, program, sourceID string) map[string]any {
	t.Helper()
	return resttest.AddV1Member(t, e, h, program, sourceID)
}

func cardPoints(t *testing.T, e *resttest.Env, h resttest.Headers, code string) map[string]any {
	t.Helper()
	return resttest.CardPoints(t, e, h, code)
}

func memberCard(t *testing.T, e *resttest.Env, h resttest.Headers, campaign, customer string) string {
	t.Helper()
	return resttest.MemberCard(t, e, h, campaign, customer)
}

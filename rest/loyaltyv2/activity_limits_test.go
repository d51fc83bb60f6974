package loyaltyv2_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestActivityFilterLimitsOnBothTransports: a card or reward activity
// filter with more than 100 $in values, or an activity type outside the
// enum, is refused with the same status and key over REST and over
// GraphQL (cardActivities, rewardActivities, Card.activities), nested
// terms included.
func TestActivityFilterLimitsOnBothTransports(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	camp := resttest.CreateCampaign(t, e, map[string]any{"name": "Gift", "voucher": map[string]any{
		"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}})["id"].(string)
	reward := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/rewards", map[string]any{
		"name": "Gift card", "type": "DIGITAL", "digital": map[string]any{"gift_vouchers": map[string]any{"campaign_id": camp, "balance": 500}},
	}, s.H)["id"].(string)
	ids := make([]string, 101)
	for i := range ids {
		ids[i] = "x"
	}
	cardPath := s.CardPath() + "/activities?"
	rewardPath := "/v2/loyalties/rewards/" + reward + "/activities?"
	for _, q := range []string{
		cardPath + "filters[id][conditions][$in]=" + strings.Join(ids, ","),
		cardPath + "filters[type][conditions][$in]=vl.card.created,nope",
		cardPath + "filters[type][conditions][$is]=vl.reward.created",
		rewardPath + "filters[id][conditions][$in]=" + strings.Join(ids, ","),
		rewardPath + "filters[type][conditions][$is]=vl.card.created",
	} {
		resttest.WantErrorKey(t, e.Do(http.MethodGet, q, nil, s.H), http.StatusBadRequest, "invalid_query_params")
	}

	app := resttest.App(e.Project)
	card := `query($p: ID!, $m: ID!, $c: ID!, $w: CardActivityWhereInput) {
		cardActivities(programID: $p, memberID: $m, cardID: $c, where: $w) { totalCount } }`
	edge := `query($c: ID!, $w: CardActivityWhereInput) { node(id: $c) { ... on Card { activities(where: $w) { totalCount } } } }`
	rew := `query($r: ID!, $w: RewardActivityWhereInput) { rewardActivities(rewardID: $r, where: $w) { totalCount } }`
	for name, c := range map[string]struct {
		query string
		where map[string]any
	}{
		"card idIn 101":          {card, map[string]any{"idIn": ids}},
		"card typeIn unknown":    {card, map[string]any{"typeIn": []string{"vl.card.created", "nope"}}},
		"card type of a reward":  {card, map[string]any{"type": "vl.reward.created"}},
		"card nested typeNEQ":    {card, map[string]any{"or": []any{map[string]any{"not": map[string]any{"typeNEQ": "nope"}}}}},
		"card idNotIn 101":       {card, map[string]any{"and": []any{map[string]any{"idNotIn": ids}}}},
		"card hasCardWith idIn":  {card, map[string]any{"hasCardWith": []any{map[string]any{"idIn": ids}}}},
		"Card.activities typeIn": {edge, map[string]any{"typeIn": []string{"nope"}}},
		"reward idIn 101":        {rew, map[string]any{"idIn": ids}},
		"reward type of a card":  {rew, map[string]any{"type": "vl.card.created"}},
	} {
		vars := map[string]any{"p": s.Program, "m": s.Member, "c": s.Card, "r": reward, "w": c.where}
		if !strings.Contains(c.query, "$p") {
			delete(vars, "p")
			delete(vars, "m")
		}
		if !strings.Contains(c.query, "$c") {
			delete(vars, "c")
		}
		if !strings.Contains(c.query, "$r") {
			delete(vars, "r")
		}
		r := e.GraphQL(app, c.query, vars)
		if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != float64(http.StatusBadRequest) ||
			r.Errors[0].Extensions["key"] != "invalid_query_params" {
			t.Errorf("%s: want 400 invalid_query_params, got %+v", name, r)
		}
	}
	// Within the limits both transports answer.
	ok := e.GraphQL(app, card, map[string]any{"p": s.Program, "m": s.Member, "c": s.Card,
		"w": map[string]any{"idIn": ids[:100], "typeIn": []string{"vl.card.created"}}})
	if len(ok.Errors) > 0 {
		t.Errorf("100 ids: %+v", ok.Errors)
	}
	resttest.MustOK(t, e, http.MethodGet, cardPath+"filters[id][conditions][$in]="+strings.Join(ids[:100], ","), nil, s.H)
}

package loyaltyv2_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// v2 tier structures over time: expiries and downgrades applied by the
// daily job as the memberships' tier_progress announces them, SEGMENT
// tiers, POINT_EARNED NEXT_TRACKING_PERIOD. The clock moves through the
// daily job's now and by back-dating a card's transactions.

// scheduledStructure creates, activates and assigns a tier structure with
// tiers of the given qualification rules; it answers the structure's and
// the tiers' ids.
func scheduledStructure(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup, body map[string]any, rules ...map[string]any) (string, []string) {
	t.Helper()
	body["name"], body["card_definition_id"] = "Structure", s.CardDef
	ts := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures", body, s.H)["id"].(string)
	var tiers []string
	for _, r := range rules {
		tiers = append(tiers, resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/tiers",
			map[string]any{"name": "Tier", "qualification_rules": r}, s.H)["id"].(string))
	}
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/tier-structures/"+ts+"/activate", nil, s.H)
	resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/tier-structures/batch",
		map[string]any{"assign": []any{map[string]any{"id": ts}}}, s.H)
	return ts, tiers
}

// tierProgress is the member's tier progress on its card.
func tierProgress(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup) map[string]any {
	t.Helper()
	ms := resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/memberships/"+s.Cust, nil, s.H)
	return ms["cards"].([]any)[0].(map[string]any)["tier_progress"].(map[string]any)
}

// currentTier is the id of the member's current tier ("" for none).
func currentTier(p map[string]any) string {
	cur, _ := p["current"].(map[string]any)
	if cur == nil {
		return ""
	}
	return cur["tier"].(map[string]any)["id"].(string)
}

// tierTxTypes are the member's tier transactions' types, oldest first.
func tierTxTypes(t *testing.T, e *resttest.Env, s resttest.LoyaltySetup) []string {
	t.Helper()
	var out []string
	for _, tx := range resttest.MustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+s.Program+"/members/"+s.Member+"/tiers/transactions?order=created_at&limit=100", nil, s.H)["data"].([]any) {
		out = append(out, tx.(map[string]any)["type"].(string))
	}
	return out
}

// TestV2TierKeptUntilExpiryThenDowngradedAsTheRiskSaid: a POINT_BALANCE
// structure whose tiers expire a month after they are reached (grace 5
// days, SINGLE_LEVEL): spending points keeps Gold (no transaction), the
// membership shows the risk — Silver, one level down, on the expiry plus
// the grace — and the daily job does exactly that on that date, once
// (two workers, two runs); the new tier's period starts then. A member
// still qualifying is prolonged instead.
func TestV2TierKeptUntilExpiryThenDowngradedAsTheRiskSaid(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	_, tiers := scheduledStructure(t, e, s, map[string]any{"type": "POINT_BALANCE",
		"expiration": map[string]any{"type": "ROLLING_EXPIRATION", "rolling_expiration": map[string]any{"period": map[string]any{"value": 1, "unit": "MONTH"}}},
		"downgrade":  map[string]any{"type": "SINGLE_LEVEL", "grace_period": map[string]any{"value": 5, "unit": "DAY"}}},
		map[string]any{"type": "POINTS", "min_value": 0, "max_value": 99}, map[string]any{"type": "POINTS", "min_value": 100, "max_value": 199},
		map[string]any{"type": "POINTS", "min_value": 200})
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 250}, s.H)
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": -240}, s.H)
	p := tierProgress(t, e, s)
	if currentTier(p) != tiers[2] {
		t.Fatalf("after spending, current %v; want Gold kept until its expiry", resttest.MustJSON(p["current"]))
	}
	if got := tierTxTypes(t, e, s); len(got) != 1 || got[0] != "UPGRADED" && got[0] != "JOINED" {
		t.Errorf("tier transactions %v, want the one move into Gold", got)
	}
	cur := p["current"].(map[string]any)
	expires, err := time.Parse(time.RFC3339, cur["expires_at"].(string))
	if err != nil {
		t.Fatal(err)
	}
	due := expires.AddDate(0, 0, 5)
	risks := p["risks"].([]any)
	if len(risks) != 1 || risks[0].(map[string]any)["type"] != "TIER_DOWNGRADE" ||
		risks[0].(map[string]any)["tier"].(map[string]any)["id"] != tiers[1] || risks[0].(map[string]any)["date"] != due.UTC().Format("2006-01-02T15:04:05.000Z") {
		t.Fatalf("risks %v; want a downgrade to Silver on %s", resttest.MustJSON(risks), due)
	}
	if r := resttest.RunDailyPoints(t, e, due.Add(-time.Hour), 2); r.TiersSettled != 0 {
		t.Errorf("before the due date: %d settled, want 0", r.TiersSettled)
	}
	for i := range 2 { // two processes at once, twice
		if n := resttest.RunDailyTwoProcesses(t, e, due.Add(time.Hour)); n != 1-i {
			t.Errorf("on the due date, run %d: %d settled, want %d", i, n, 1-i)
		}
	}
	if got := tierTxTypes(t, e, s); len(got) != 2 || got[1] != "DOWNGRADED" {
		t.Errorf("tier transactions %v, want a DOWNGRADED after the move into Gold", got)
	}
	p = tierProgress(t, e, s)
	if currentTier(p) != tiers[1] {
		t.Errorf("after the job, current %v; want Silver", resttest.MustJSON(p["current"]))
	}
	start, _ := time.Parse(time.RFC3339, p["current"].(map[string]any)["start_at"].(string))
	if !start.Equal(due.Add(time.Hour)) {
		t.Errorf("Silver started %s, want the job's clock %s", start, due.Add(time.Hour))
	}
	// Silver's own expiry: the points (10) put the member in Bronze then.
	next := due.Add(time.Hour).AddDate(0, 1, 5).Add(time.Hour)
	if r := resttest.RunDailyPoints(t, e, next, 2); r.TiersSettled != 1 {
		t.Errorf("at Silver's due date: %d settled, want 1", r.TiersSettled)
	}

	// Another member whose balance still holds its tier is prolonged.
	other := resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "member-2"}, resttest.App(e.Project))["id"].(string)
	m := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/members", map[string]any{"customer_id": other}, s.H)
	s2 := s
	s2.Cust, s2.Member, s2.Card = other, m["id"].(string), resttest.MemberCardAt(t, m, 0)["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, s2.CardPath()+"/points", map[string]any{"points": 150}, s.H)
	p = tierProgress(t, e, s2)
	if len(p["risks"].([]any)) != 0 {
		t.Errorf("a member whose balance holds Silver has risks %v", resttest.MustJSON(p["risks"]))
	}
	exp2, _ := time.Parse(time.RFC3339, p["current"].(map[string]any)["expires_at"].(string))
	if r := resttest.RunDailyPoints(t, e, exp2.AddDate(0, 0, 5).Add(time.Hour), 2); r.TiersSettled != 1 {
		t.Errorf("at the second member's due date: %d settled, want 1", r.TiersSettled)
	}
	if got := tierTxTypes(t, e, s2); len(got) != 2 || got[1] != "PROLONGED" {
		t.Errorf("second member's tier transactions %v, want a PROLONGED", got)
	}
}

// TestV2SegmentTierHeldByTheSegmentsMembers: a SEGMENT tier is held by a
// member whose customer is in the segment, whatever its points; a member
// outside it is placed by points. The daily job records the segment
// member's join once (two processes, two runs).
func TestV2SegmentTierHeldByTheSegmentsMembers(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	app := resttest.App(e.Project)
	seg := resttest.MustOK(t, e, http.MethodPost, "/v1/segments", map[string]any{"name": "VIP", "type": "static",
		"customers": []any{s.Cust}}, app)["id"].(string)
	_, tiers := scheduledStructure(t, e, s, map[string]any{"type": "POINT_BALANCE"},
		map[string]any{"type": "POINTS", "min_value": 0}, map[string]any{"type": "SEGMENT", "segment": map[string]any{"id": seg}})
	if got := currentTier(tierProgress(t, e, s)); got != tiers[1] {
		t.Errorf("the segment's member holds %q, want the segment tier %s", got, tiers[1])
	}
	other := resttest.MustOK(t, e, http.MethodPost, "/v1/customers", map[string]any{"source_id": "member-2"}, app)["id"].(string)
	m := resttest.MustOK(t, e, http.MethodPost, "/v2/loyalties/programs/"+s.Program+"/members", map[string]any{"customer_id": other}, s.H)
	s2 := s
	s2.Cust, s2.Member, s2.Card = other, m["id"].(string), resttest.MemberCardAt(t, m, 0)["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, s2.CardPath()+"/points", map[string]any{"points": 500}, s.H)
	if got := currentTier(tierProgress(t, e, s2)); got != tiers[0] {
		t.Errorf("a member outside the segment holds %q, want the points tier %s", got, tiers[0])
	}
	// The daily job records the segment member's join, once.
	for i := range 2 {
		if n := resttest.RunDailyTwoProcesses(t, e, time.Now().UTC()); n != 1-i {
			t.Errorf("run %d: %d settled, want %d", i, n, 1-i)
		}
	}
	if got := tierTxTypes(t, e, s); len(got) != 1 || got[0] != "JOINED" {
		t.Errorf("the segment member's tier transactions %v, want one JOINED", got)
	}
}

// TestV2PointsCountFromTheNextTrackingPeriod: with POINT_EARNED
// NEXT_TRACKING_PERIOD (one month), points earned this month place the
// member in no tier this month; the daily job next month records the join
// once (two workers, two runs), and the month after — nothing earned in
// between — the leave. Seen from next month (the points moved back a
// month), the membership shows the tier.
func TestV2PointsCountFromTheNextTrackingPeriod(t *testing.T) {
	e := resttest.New(t)
	s := resttest.NewLoyaltySetup(t, e)
	_, tiers := scheduledStructure(t, e, s, map[string]any{"type": "POINT_EARNED",
		"point_earned": map[string]any{"type": "NEXT_TRACKING_PERIOD", "period": map[string]any{"value": 1, "unit": "MONTH"}}},
		map[string]any{"type": "POINTS", "min_value": 100})
	resttest.MustOK(t, e, http.MethodPost, s.CardPath()+"/points", map[string]any{"points": 150}, s.H)
	if got := currentTier(tierProgress(t, e, s)); got != "" {
		t.Fatalf("this month's points count next month, but the member holds %s", got)
	}
	now := time.Now().UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	if r := resttest.RunDailyPoints(t, e, now, 2); r.TiersSettled != 0 {
		t.Errorf("this month: %d settled, want 0", r.TiersSettled)
	}
	for i := range 2 { // two processes at once, twice
		if n := resttest.RunDailyTwoProcesses(t, e, month.AddDate(0, 1, 1)); n != 1-i {
			t.Errorf("next month, run %d: %d settled, want %d", i, n, 1-i)
		}
	}
	if got := tierTxTypes(t, e, s); len(got) != 1 || got[0] != "JOINED" {
		t.Errorf("tier transactions %v, want one JOINED", got)
	}
	if _, err := e.DB.SQL.ExecContext(context.Background(), `UPDATE card_transactions SET created_at = $1 WHERE card_id = $2`,
		month.AddDate(0, -1, 2), s.Card); err != nil {
		t.Fatal(err)
	}
	if got := currentTier(tierProgress(t, e, s)); got != tiers[0] {
		t.Errorf("with last month's points the member holds %q, want %s", got, tiers[0])
	}
	if r := resttest.RunDailyPoints(t, e, month.AddDate(0, 2, 1), 2); r.TiersSettled != 1 {
		t.Errorf("two months on: %d settled, want 1", r.TiersSettled)
	}
	if got := tierTxTypes(t, e, s); len(got) != 2 || got[1] != "LEFT" {
		t.Errorf("tier transactions %v, want JOINED then LEFT", got)
	}
}

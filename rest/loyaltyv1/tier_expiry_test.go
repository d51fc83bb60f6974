package loyaltyv1_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/tiertransaction"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/resttest"
)

// v1 tiers over time: start_date NEXT_PERIOD, expiration_date CUSTOM with
// extend and rounding, the member tier's expiration object, and
// options.recalculate_tiers. The clock moves through the daily job's now
// and by back-dating a card's transactions.

// tieredV1Program creates a program with the tier settings and one tier
// Gold from 100 points; it answers the program's and the tier's ids.
func tieredV1Program(t *testing.T, e *resttest.Env, app resttest.Headers, settings map[string]any) (string, string) {
	t.Helper()
	body := map[string]any{"name": "Tiers " + time.Now().Format("150405.000000"), "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0},
			"code_config": map[string]any{"pattern": "LC-########"}}}
	if settings != nil {
		body["loyalty_tiers_expiration"] = settings
	}
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", body, app)["id"].(string)
	r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{
		map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app)
	var tiers []map[string]any
	if err := json.Unmarshal(r.Body, &tiers); r.Status != http.StatusOK || err != nil || len(tiers) != 1 {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	return id, tiers[0]["id"].(string)
}

// memberTier is the member's tier list's only entry (nil: none).
func memberTier(t *testing.T, e *resttest.Env, app resttest.Headers, code string) map[string]any {
	t.Helper()
	data := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/tiers", nil, app)["data"].([]any)
	if len(data) == 0 {
		return nil
	}
	return data[0].(map[string]any)
}

// backdate moves every transaction of the card to at.
func backdate(t *testing.T, e *resttest.Env, cardID string, at time.Time) {
	t.Helper()
	if _, err := e.DB.SQL.ExecContext(context.Background(), `UPDATE voucher_transactions SET created_at = $1 WHERE voucher_id = $2`,
		at, cardID); err != nil {
		t.Fatal(err)
	}
}

func countEvents(e *resttest.Env, typ string) int {
	return e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type(typ)).CountX(resttest.SystemCtx())
}

// TestV1TierStartsNextPeriod: with start_date NEXT_PERIOD, points earned
// this month place the member in no tier this month; the daily job of the
// next month records the join once (two workers, two runs), the member's
// tier then shows its expiration (valid this month, to its last day), and
// the month after it is left.
func TestV1TierStartsNextPeriod(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateHook(t, e, e.NewManagementKey(), "http://127.0.0.1:9/never", "customer.loyalty.tier.joined", "customer.loyalty.tier.left")
	id, gold := tieredV1Program(t, e, app, map[string]any{"qualification_type": "POINTS_IN_PERIOD", "qualification_period": "MONTH",
		"start_date": map[string]any{"type": "NEXT_PERIOD"}, "expiration_date": map[string]any{"type": "END_OF_PERIOD", "extend": "P0D"}})
	card := resttest.AddV1Member(t, e, app, id, "patient")
	code, cardID := card["code"].(string), card["id"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 150}, app)
	if tier := memberTier(t, e, app, code); tier != nil {
		t.Fatalf("this month's points count next month, but the member holds %v", tier)
	}
	if countEvents(e, "customer.loyalty.tier.joined") != 0 {
		t.Fatal("a join was announced in the month the points were earned")
	}
	now := time.Now().UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	if r := resttest.RunDailyPoints(t, e, now, 2); r.TiersSettled != 0 {
		t.Errorf("this month: %d tiers settled, want 0", r.TiersSettled)
	}
	next := month.AddDate(0, 1, 1).Add(3 * time.Hour)
	for i := range 2 { // two processes at once, twice
		if n := resttest.RunDailyTwoProcesses(t, e, next); n != 1-i {
			t.Errorf("next month, run %d: %d tiers settled, want %d", i, n, 1-i)
		}
	}
	if n := countEvents(e, "customer.loyalty.tier.joined"); n != 1 {
		t.Errorf("%d joined events, want 1", n)
	}
	if n := e.DB.Client.TierTransaction.Query().Where(tiertransaction.MemberID(cardID), tiertransaction.Type("JOINED"),
		tiertransaction.ToTierID(gold)).CountX(resttest.SystemCtx()); n != 1 {
		t.Errorf("%d JOINED rows, want 1", n)
	}

	// Seen from the month after the points: the points moved a month back.
	backdate(t, e, cardID, month.AddDate(0, -1, 3))
	tier := memberTier(t, e, app, code)
	if tier == nil || tier["id"] != gold {
		t.Fatalf("with last month's points the member holds %v, want Gold", tier)
	}
	exp, _ := tier["expiration"].(map[string]any)
	if exp == nil || exp["tier_id"] != gold || exp["campaign_id"] != id || exp["start_date"] != month.Format(time.DateOnly) ||
		exp["expiration_date"] != month.AddDate(0, 1, -1).Format(time.DateOnly) {
		t.Errorf("expiration %v: want valid from %s to %s", exp, month.Format(time.DateOnly), month.AddDate(0, 1, -1).Format(time.DateOnly))
	}

	// Two months after the points were earned, with nothing earned since: left.
	later := month.AddDate(0, 2, 1).Add(3 * time.Hour)
	if r := resttest.RunDailyPoints(t, e, later, 2); r.TiersSettled != 1 {
		t.Errorf("two months on: %d tiers settled, want 1", r.TiersSettled)
	}
	if n := countEvents(e, "customer.loyalty.tier.left"); n != 1 {
		t.Errorf("%d left events, want 1", n)
	}
}

// TestV1TierCustomExpiryKeepsTheTierAfterTheDrop: by balance with
// expiration_date CUSTOM, extend P1M and rounding MONTH/END, a member whose
// balance falls below Gold keeps it — no change recorded, the expiration
// shows the last day of the month a month after the drop — until the
// daily job after that day records the leave, once.
func TestV1TierCustomExpiryKeepsTheTierAfterTheDrop(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateHook(t, e, e.NewManagementKey(), "http://127.0.0.1:9/never", "customer.loyalty.tier.joined", "customer.loyalty.tier.left")
	id, gold := tieredV1Program(t, e, app, map[string]any{"qualification_type": "BALANCE",
		"start_date": map[string]any{"type": "IMMEDIATE"}, "expiration_date": map[string]any{"type": "CUSTOM", "extend": "P1M",
			"rounding": map[string]any{"type": "MONTH", "strategy": "END", "unit": "MONTH"}}})
	code := resttest.AddV1Member(t, e, app, id, "faller")["code"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 150}, app)
	tier := memberTier(t, e, app, code)
	if tier == nil || tier["id"] != gold {
		t.Fatalf("with 150 points the member holds %v, want Gold", tier)
	}
	if exp := tier["expiration"].(map[string]any); exp["expiration_date"] != nil || exp["start_date"] != time.Now().UTC().Format(time.DateOnly) {
		t.Errorf("while the balance holds Gold the expiration is open, got %v", exp)
	}
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": -100}, app)
	dropped := time.Now().UTC()
	tier = memberTier(t, e, app, code)
	if tier == nil || tier["id"] != gold {
		t.Fatalf("after the drop the member holds %v, want Gold kept", tier)
	}
	a := dropped.AddDate(0, 1, 0)
	lastDay := time.Date(a.Year(), a.Month()+1, 0, 0, 0, 0, 0, time.UTC)
	if exp := tier["expiration"].(map[string]any); exp["expiration_date"] != lastDay.Format(time.DateOnly) {
		t.Errorf("expiration after the drop %v, want %s", exp, lastDay.Format(time.DateOnly))
	}
	if n := countEvents(e, "customer.loyalty.tier.left"); n != 0 {
		t.Errorf("the drop announced %d leaves, want none", n)
	}
	gql := e.GraphQL(app, `query($c: String!) { loyaltyV1MemberTierHolds(code: $c) { tier { id } expiration { tierID campaignID expirationDate } } }`,
		map[string]any{"c": code})
	if len(gql.Errors) > 0 || resttest.MustJSON(gql.Data["loyaltyV1MemberTierHolds"]) != `[{"expiration":{"campaignID":"`+id+`","expirationDate":"`+
		lastDay.Format(time.DateOnly)+`","tierID":"`+gold+`"},"tier":{"id":"`+gold+`"}}]` {
		t.Errorf("GraphQL member tier holds %v %s", gql.Errors, resttest.MustJSON(gql.Data))
	}
	if r := resttest.RunDailyPoints(t, e, lastDay.Add(20*time.Hour), 2); r.TiersSettled != 0 {
		t.Errorf("on the last day: %d settled, want 0", r.TiersSettled)
	}
	for i := range 2 {
		if r := resttest.RunDailyPoints(t, e, lastDay.AddDate(0, 0, 1).Add(time.Hour), 2); r.TiersSettled != 1-i {
			t.Errorf("the day after, run %d: %d settled, want %d", i, r.TiersSettled, 1-i)
		}
	}
	if n := countEvents(e, "customer.loyalty.tier.left"); n != 1 {
		t.Errorf("%d left events, want 1", n)
	}
}

// TestV1TierSettingsAreChecked: a malformed extend, rounding or period is
// 400 on create and update, and nothing is stored.
func TestV1TierSettingsAreChecked(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id, _ := tieredV1Program(t, e, app, nil)
	for _, bad := range []map[string]any{
		{"qualification_type": "BALANCE", "expiration_date": map[string]any{"type": "CUSTOM", "extend": "3 months"}},
		{"qualification_type": "BALANCE", "expiration_date": map[string]any{"type": "CUSTOM", "extend": "P11Y"}},
		{"qualification_type": "BALANCE", "expiration_date": map[string]any{"type": "CUSTOM", "extend": "P1M",
			"rounding": map[string]any{"type": "CUSTOM", "value": 12}}},
		{"qualification_type": "BALANCE", "expiration_date": map[string]any{"type": "SOMETIME", "extend": "P1M"}},
		{"qualification_type": "POINTS_IN_PERIOD", "qualification_period": "WEEK"},
	} {
		r := e.DoJSON(http.MethodPut, "/v1/loyalties/"+id, map[string]any{"loyalty_tiers_expiration": bad}, app)
		if r.Status != http.StatusBadRequest {
			t.Errorf("update with %v: %d %s, want 400", bad, r.Status, r.Body)
		}
		r = e.DoJSON(http.MethodPost, "/v1/loyalties", map[string]any{"name": "Bad tiers", "type": "AUTO_UPDATE",
			"voucher":                  map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0}},
			"loyalty_tiers_expiration": bad}, app)
		if r.Status != http.StatusBadRequest {
			t.Errorf("create with %v: %d %s, want 400", bad, r.Status, r.Body)
		}
	}
	if got := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id, nil, app)["loyalty_tiers_expiration"]; got != nil {
		t.Errorf("a refused update stored %v", got)
	}
}

// TestV1RecalculateTiersOnProgramUpdate: members whose tier was never
// recorded (the tier was created after their points) join it when the
// program is updated with options.recalculate_tiers — once, however often
// the update is repeated; a tier the new settings lower is not recorded
// (upgrades only).
func TestV1RecalculateTiersOnProgramUpdate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	resttest.CreateHook(t, e, e.NewManagementKey(), "http://127.0.0.1:9/never", "customer.loyalty.tier.joined", "customer.loyalty.tier.left")
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{"name": "Recalc", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0}}}, app)["id"].(string)
	var codes []string
	for _, who := range []string{"r1", "r2", "r3"} {
		code := resttest.AddV1Member(t, e, app, id, who)["code"].(string)
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 150}, app)
		codes = append(codes, code)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app); r.Status != http.StatusOK {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	if memberTier(t, e, app, codes[0]) == nil || countEvents(e, "customer.loyalty.tier.joined") != 0 {
		t.Fatal("want Gold computed but no join recorded before the recalculation")
	}
	for range 2 {
		resttest.MustOK(t, e, http.MethodPut, "/v1/loyalties/"+id, map[string]any{"description": "recalculated",
			"options": map[string]any{"recalculate_tiers": true}}, app)
	}
	if n := countEvents(e, "customer.loyalty.tier.joined"); n != 3 {
		t.Errorf("%d joined events after two recalculations, want 3", n)
	}
	if a := resttest.MustOK(t, e, http.MethodGet, "/v1/customers/r1/activities?limit=100&type=customer.loyalty.tier.joined", nil, app)["data"].([]any); len(a) != 1 {
		t.Errorf("r1 has %d joined activities, want 1", len(a))
	}
	// GraphQL: the same option, nothing more to record.
	gql := e.GraphQL(app, `mutation($p: String!) { updateLoyaltyV1Program(idOrName: $p, input: {}, program: {options: {recalculateTiers: true}}) { id } }`,
		map[string]any{"p": id})
	if len(gql.Errors) > 0 || countEvents(e, "customer.loyalty.tier.joined") != 3 {
		t.Errorf("GraphQL recalculation: %v, %d joins", gql.Errors, countEvents(e, "customer.loyalty.tier.joined"))
	}
	// Settings that place nobody (points count next period): no leave recorded.
	resttest.MustOK(t, e, http.MethodPut, "/v1/loyalties/"+id, map[string]any{"loyalty_tiers_expiration": map[string]any{
		"qualification_type": "POINTS_IN_PERIOD", "qualification_period": "MONTH", "start_date": map[string]any{"type": "NEXT_PERIOD"},
		"expiration_date": map[string]any{"type": "END_OF_PERIOD", "extend": "P0D"}},
		"options": map[string]any{"recalculate_tiers": true}}, app)
	if n := countEvents(e, "customer.loyalty.tier.left"); n != 0 {
		t.Errorf("the recalculation recorded %d leaves, want none (upgrades only)", n)
	}
}

// TestV1RecalculateTiersJobRunsOnceUnderTwoWorkers: a program larger than
// loyaltyv1.RecalculateInline is recalculated by a job; two updates with
// recalculate_tiers schedule two jobs, which two workers run at once over
// the same cards — each member joins Gold exactly once (run it on
// PostgreSQL: .ci/with-postgres).
func TestV1RecalculateTiersJobRunsOnceUnderTwoWorkers(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{"name": "Recalc job", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0}}}, app)["id"].(string)
	n := loyaltyv1.RecalculateInline + 10
	for i := range n {
		code := resttest.AddV1Member(t, e, app, id, fmt.Sprintf("many-%d", i))["code"].(string)
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 100 + i}, app)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app); r.Status != http.StatusOK {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	for range 2 {
		resttest.MustOK(t, e, http.MethodPut, "/v1/loyalties/"+id, map[string]any{"options": map[string]any{"recalculate_tiers": true}}, app)
	}
	joined := func() int {
		return e.DB.Client.TierTransaction.Query().Where(tiertransaction.ProgramID(id), tiertransaction.Type("JOINED")).CountX(resttest.SystemCtx())
	}
	if j := joined(); j != 0 {
		t.Fatalf("%d joins before the jobs ran, want 0 (a job recalculates a large program)", j)
	}
	resttest.RunOnceOnTwoWorkers(t, e)
	if j := joined(); j != n {
		t.Errorf("%d joins after two jobs, want %d (one per member)", j, n)
	}
}

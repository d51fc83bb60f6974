package loyaltyv1_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestV1ProgramExportsAndEstimate: the program's transactions and
// points-expiration exports are scheduled with their filters, and the
// points estimate evaluates the order.paid rules without writing.
func TestV1ProgramExportsAndEstimate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Estimates", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "est")["code"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 7}, app)

	tx := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/transactions/export", nil, app)
	if tx["exported_object"] != "voucher_transactions" || tx["status"] != "SCHEDULED" {
		t.Errorf("transactions export %v", tx)
	}
	pe := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/points-expiration/export",
		map[string]any{"parameters": map[string]any{"order": "-expires_at", "fields": []string{"id", "points", "expires_at"}}}, app)
	if pe["exported_object"] != "points_expiration" {
		t.Errorf("points-expiration export %v", pe)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/points-expiration/export",
		map[string]any{"parameters": map[string]any{"order": "points"}}, app), 400, "invalid_payload")
	resttest.WantErrorKey(t, e.Do(http.MethodPost, "/v1/loyalties/nope/transactions/export", nil, app), 404, "not_found")

	rules := []any{
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 10}},
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_AMOUNT",
			"order": map[string]any{"amount": map[string]any{"every": 1000, "points": 3}}}},
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rules, app); r.Status != http.StatusOK {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	est := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/qualifications",
		map[string]any{"customer": map[string]any{"source_id": "est"}, "order": map[string]any{"amount": 12345}}, app)
	if est["points_estimation"] != float64(46) || est["campaign"].(map[string]any)["id"] != id {
		t.Errorf("estimate %v", est)
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(7) {
		t.Errorf("the estimate wrote points: %v", lc)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/qualifications",
		map[string]any{"customer": map[string]any{"source_id": "stranger"}, "order": map[string]any{"amount": 1}}, app), 400, "campaign_not_allow_auto_join")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/qualifications", map[string]any{"order": map[string]any{}}, app), 400, "invalid_payload")

	// A tier's rewards: none mapped, and an unknown tier.
	tiers := []any{map[string]any{"name": "Gold", "points": map[string]any{"from": 0, "to": 100}}}
	r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", tiers, app)
	if r.Status != http.StatusOK {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	var created []map[string]any
	if err := json.Unmarshal(r.Body, &created); err != nil || len(created) != 1 {
		t.Fatalf("tiers %s", r.Body)
	}
	if got := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/tiers/"+created[0]["id"].(string)+"/rewards", nil, app); got["total"] != float64(0) {
		t.Errorf("tier rewards %v", got)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/tiers/ltr_nope/rewards", nil, app), 404, "not_found")
}

// TestV1SpendingRacingExpiryKeepsTheLedger: 30 subtractions of 5 through
// two server processes race the daily job (two workers) expiring a bucket
// of 60 on a card of 100: whatever the interleaving, the balance never
// goes negative, equals the sum of the card's transactions, and equals the
// points left in its ACTIVE buckets.
func TestV1SpendingRacingExpiryKeepsTheLedger(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Race expiry", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "racer")["code"].(string)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance",
		map[string]any{"points": 60, "expiration_type": "CUSTOM_DATE", "expiration_date": tomorrow}, app)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 40, "expiration_type": "NON_EXPIRING"}, app)
	second := e.AnotherServer()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			base := e.Server.URL
			if i%2 == 1 {
				base = second.URL
			}
			r := e.DoAt(base, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", []byte(`{"points": -5}`), app)
			if r.Status != http.StatusOK && (r.Status != http.StatusBadRequest || r.JSON(t)["key"] != "invalid_amount") {
				t.Errorf("subtraction: %d %s", r.Status, r.Body)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-start
		resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 2), 2)
	}()
	close(start)
	wg.Wait()
	resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 2), 1) // whatever the race left due
	balance := resttest.CardPoints(t, e, app, code)["balance"].(float64)
	if balance < 0 {
		t.Fatalf("negative balance %v", balance)
	}
	var sum float64
	for _, tx := range resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any) {
		sum += tx.(map[string]any)["details"].(map[string]any)["balance"].(map[string]any)["points"].(float64)
	}
	if sum != balance {
		t.Errorf("balance %v, transactions sum to %v", balance, sum)
	}
	var inBuckets float64
	for _, b := range resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration?limit=100", nil, app)["data"].([]any) {
		inBuckets += b.(map[string]any)["bucket"].(map[string]any)["total_points"].(float64)
	}
	if inBuckets != balance {
		t.Errorf("balance %v, active buckets hold %v", balance, inBuckets)
	}
}

// TestV1ProgramExportsWriteTheirFiles: the job writes a program's
// transactions export with each row's own card, and its points-expiration
// export with the dated buckets only.
func TestV1ProgramExportsWriteTheirFiles(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	id := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{"name": "Exported", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 2, "rounding_type": "END_OF_MONTH"}}},
	}, app)["id"].(string)
	a := resttest.AddV1Member(t, e, app, id, "xa")
	b := resttest.AddV1Member(t, e, app, id, "xb")
	for _, m := range []struct {
		code string
		body map[string]any
	}{{a["code"].(string), map[string]any{"points": 50}}, {a["code"].(string), map[string]any{"points": 30, "expiration_type": "NON_EXPIRING"}},
		{b["code"].(string), map[string]any{"points": 20}}} {
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+m.code+"/balance", m.body, app)
	}
	download := func(exportID string) []string {
		t.Helper()
		if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
			t.Fatalf("RunOnce: %v %v", worked, err)
		}
		done := resttest.MustOK(t, e, http.MethodGet, "/v1/exports/"+exportID, nil, app)
		if done["status"] != "DONE" {
			t.Fatalf("export %v", done)
		}
		link := done["result"].(map[string]any)["url"].(string)
		r := resttest.Fetch(t, e.Server.URL+link[strings.Index(link, "/v1/exports/"):])
		if r.Status != http.StatusOK {
			t.Fatalf("download %d %s", r.Status, r.Body)
		}
		return strings.Split(strings.TrimSpace(r.Body), "\n")
	}
	txExport := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/transactions/export",
		map[string]any{"parameters": map[string]any{"fields": []string{"voucher_id", "amount"}, "order": "created_at"}}, app)
	lines := download(txExport["id"].(string))
	want := []string{"voucher_id,amount", a["id"].(string) + ",50", a["id"].(string) + ",30", b["id"].(string) + ",20"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("transactions export %q, want %q", lines, want)
	}
	peExport := resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/points-expiration/export", nil, app)
	lines = download(peExport["id"].(string))
	if len(lines) != 3 || lines[0] != "id,campaign_id,voucher_id,points,status,expires_at" ||
		!strings.Contains(lines[1], ",ACTIVE,") || !strings.HasPrefix(lines[1], "lopb_") {
		t.Errorf("points-expiration export %q", lines)
	}
	end := time.Date(time.Now().UTC().Year(), time.Now().UTC().Month()+3, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1).Format(time.DateOnly)
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, ","+end) {
			t.Errorf("bucket %q should expire at the end of the month two months on (%s)", l, end)
		}
	}
}

// TestV1TierEventRulesFireOnTierChanges: with tiers Bronze 1-99 and Gold
// 100+, a rule on joining any tier adds 5 and a rule on upgrading to Gold
// adds 25: points moves that change the card's tier fire them, once per
// change, and a downgrade fires neither. Each change also writes its
// customer.loyalty.tier.* webhook event once.
func TestV1TierEventRulesFireOnTierChanges(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	tierEvents := []string{"customer.loyalty.tier.joined", "customer.loyalty.tier.upgraded", "customer.loyalty.tier.downgraded", "customer.loyalty.tier.left"}
	resttest.CreateHook(t, e, e.NewManagementKey(), "http://127.0.0.1:9/never", tierEvents...)
	id := resttest.NewV1Program(t, e, app, "Tier events", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "climber")["code"].(string)
	r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/tiers", []any{
		map[string]any{"name": "Bronze", "points": map[string]any{"from": 1, "to": 99}},
		map[string]any{"name": "Gold", "points": map[string]any{"from": 100}}}, app)
	var tiers []map[string]any
	if err := json.Unmarshal(r.Body, &tiers); r.Status != http.StatusOK || err != nil || len(tiers) != 2 {
		t.Fatalf("tiers %d %s", r.Status, r.Body)
	}
	rules := []any{
		map[string]any{"event": "customer.loyalty.tier.joined", "loyalty_tier": map[string]any{"id": "__ANY__"},
			"loyalty": map[string]any{"type": "FIXED", "points": 5}},
		map[string]any{"event": "customer.loyalty.tier.upgraded", "loyalty_tier": map[string]any{"id": tiers[1]["id"]},
			"loyalty": map[string]any{"type": "FIXED", "points": 25}},
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rules, app); r.Status != http.StatusOK {
		t.Fatalf("rules %d %s", r.Status, r.Body)
	}
	for _, p := range []int{10, 90, -100, 80} { // joined (+5), upgraded (+25), downgraded, upgraded (+25)
		resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": p}, app)
	}
	if lc := resttest.CardPoints(t, e, app, code); lc["balance"] != float64(135) {
		t.Errorf("balance %v, want 10+5+90+25-100+80+25 = 135", lc["balance"])
	}
	accruals := 0
	for _, tx := range resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any) {
		if tx.(map[string]any)["type"] == "POINTS_ACCRUAL" {
			accruals++
		}
	}
	if accruals != 3 {
		t.Errorf("%d accruals, want 3", accruals)
	}
	if ts := resttest.MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/tiers", nil, app)["data"].([]any); len(ts) != 1 ||
		ts[0].(map[string]any)["name"] != "Gold" {
		t.Errorf("member tiers %v", ts)
	}
	for i, want := range []int{1, 2, 1, 0} { // joined, upgraded twice, downgraded once, never left
		if n := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type(tierEvents[i])).CountX(resttest.SystemCtx()); n != want {
			t.Errorf("%d %s events, want %d", n, tierEvents[i], want)
		}
	}
}

// TestV1DailyJobSettlesBucketsOfDeletedCards: once a program and its cards
// are deleted, the daily job settles their due buckets without error and
// books nothing.
func TestV1DailyJobSettlesBucketsOfDeletedCards(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "Deleted", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "gone")["code"].(string)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance",
		map[string]any{"points": 10, "expiration_type": "CUSTOM_DATE", "expiration_date": tomorrow}, app)
	resttest.MustOK(t, e, http.MethodDelete, "/v1/loyalties/"+id, nil, app)
	if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("deletion job: %v %v", worked, err)
	}
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/members/"+code, nil, app), 404, "not_found")
	if r := resttest.RunDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 3), 1); r.Expired != 0 {
		t.Errorf("expired %d buckets of a deleted card", r.Expired)
	}
}

// TestV1PointsBucketsThroughGraphQL: the same buckets and estimate over
// GraphQL, with the same errors.
func TestV1PointsBucketsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := resttest.NewV1Program(t, e, app, "GraphQL buckets", 0)["id"].(string)
	code := resttest.AddV1Member(t, e, app, id, "gq")["code"].(string)
	resttest.MustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 12, "expiration_type": "NON_EXPIRING"}, app)
	res := e.GraphQL(app, `query($p: String!, $c: String!) {
		loyaltyV1MemberPointsExpiration(program: $p, code: $c) { total data { id points status expiresAt } }
		loyaltyV1MemberPendingPoints(code: $c) { hasMore data { id } }
		loyaltyV1PointsEstimate(program: $p, input: {customer: {sourceID: "gq"}, order: {amount: 100}}) { pointsEstimation campaign { id } } }`,
		map[string]any{"p": id, "c": code})
	if len(res.Errors) > 0 {
		t.Fatalf("%+v", res.Errors)
	}
	list := res.Data["loyaltyV1MemberPointsExpiration"].(map[string]any)
	if list["total"] != float64(1) || list["data"].([]any)[0].(map[string]any)["points"] != float64(12) {
		t.Errorf("buckets %v", list)
	}
	res = e.GraphQL(app, `mutation($c: String!) { activateLoyaltyV1PendingPoints(code: $c, id: "lopp_nope") { balance } }`, map[string]any{"c": code})
	if len(res.Errors) != 1 || res.Errors[0].Extensions["key"] != "not_found" {
		t.Errorf("unknown entry over GraphQL: %+v", res)
	}
}

package rest_test

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

func cardPoints(t *testing.T, e *resttest.Env, h resttest.Headers, code string) map[string]any {
	t.Helper()
	return mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, h)["loyalty_card"].(map[string]any)
}

// TestV1PointsBucketsSpendSoonestAndExpireOnce: points added under the
// program's rules (1 month), never expiring and on a custom date land in
// three buckets; a subtraction empties the soonest one first; the daily
// job, run by three workers at once with the clock moved 40 days on,
// expires each due bucket once (a POINTS_EXPIRATION per bucket,
// expired_points counted, expired buckets gone from the list).
func TestV1PointsBucketsSpendSoonestAndExpireOnce(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := mustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{
		"name": "Expiring", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 1}}},
	}, app)["id"].(string)
	code := addV1Member(t, e, app, id, "exp")["code"].(string)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	for _, body := range []map[string]any{{"points": 50}, {"points": 30, "expiration_type": "NON_EXPIRING"},
		{"points": 20, "expiration_type": "CUSTOM_DATE", "expiration_date": tomorrow}} {
		mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", body, app)
	}
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": -15}, app)
	list := mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration", nil, app)
	data := list["data"].([]any)
	if list["total"] != float64(3) || len(data) != 3 {
		t.Fatalf("buckets %v", list)
	}
	first, last := data[0].(map[string]any), data[2].(map[string]any)
	if first["expires_at"] != tomorrow || first["bucket"].(map[string]any)["total_points"] != float64(5) {
		t.Errorf("the soonest bucket should have paid the 15: %v", first)
	}
	if _, ok := last["expires_at"]; ok || last["bucket"].(map[string]any)["total_points"] != float64(30) {
		t.Errorf("the never-expiring bucket comes last, without expires_at: %v", last)
	}
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(85) || lc["next_expiration_date"] != tomorrow ||
		lc["next_expiration_points"] != float64(5) {
		t.Errorf("card before the job %v", lc)
	}
	// Bad input: a page beyond the bounds, a member of another program.
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration?limit=101", nil, app), 400, "invalid_query_params")
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/members/NOPE/points-expiration", nil, app), 404, "not_found")

	// Today nothing is due; 40 days on, two buckets are, expired once by three workers.
	if r := runDailyPoints(t, e, time.Now().UTC(), 1); r.Expired != 0 {
		t.Errorf("expired %d buckets today", r.Expired)
	}
	if r := runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 40), 3); r.Expired != 2 {
		t.Errorf("expired %d buckets, want 2", r.Expired)
	}
	if r := runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 41), 2); r.Expired != 0 {
		t.Errorf("a second run expired %d buckets", r.Expired)
	}
	lc := cardPoints(t, e, app, code)
	if lc["balance"] != float64(30) || lc["expired_points"] != float64(55) {
		t.Errorf("card after the job %v", lc)
	}
	txs := mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any)
	expirations := 0
	for _, tx := range txs {
		if tx.(map[string]any)["type"] == "POINTS_EXPIRATION" {
			expirations++
		}
	}
	if expirations != 2 {
		t.Errorf("%d POINTS_EXPIRATION transactions, want 2", expirations)
	}
	if left := mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration", nil, app); left["total"] != float64(1) {
		t.Errorf("after expiry %v", left)
	}
	// The member's activity shows the moves: three additions and the
	// removal (points_added with negative points), two expiries.
	acts := mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/activity?limit=100", nil, app)["data"].([]any)
	types := map[string]int{}
	for _, a := range acts {
		types[a.(map[string]any)["type"].(string)]++
	}
	if types["customer.voucher.loyalty_card.points_added"] != 4 || types["customer.voucher.loyalty_card.points_expired"] != 2 {
		t.Errorf("activity types %v", types)
	}
}

// TestV1PendingPointsLifecycle: an order.paid rule with a pending period
// leaves a lopp_ entry instead of points; the entry can be changed,
// activated once (two activations at once through two server processes:
// one credits, the other is refused) or canceled, and the daily job
// activates what is due.
func TestV1PendingPointsLifecycle(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := newV1Program(t, e, app, "Pending", 0)["id"].(string)
	code := addV1Member(t, e, app, id, "pat")["code"].(string)
	rule := []any{map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 10},
		"pending_points": map[string]any{"period_type": "DAY", "period_value": 3}}}
	mustOK200 := func(r resttest.Response) {
		t.Helper()
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	}
	mustOK200(e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rule, app))
	for _, bad := range []map[string]any{{"period_type": "DAY", "period_value": 91}, {"period_type": "WEEK", "period_value": 1}} {
		r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", []any{map[string]any{"event": "order.paid",
			"loyalty": map[string]any{"type": "FIXED", "points": 1}, "pending_points": bad}}, app)
		wantErrorKey(t, r, 400, "invalid_payload")
	}
	staticCampaign(t, e, "Coupons", "P1", "P2", "P3")
	for i, c := range []string{"P1", "P2", "P3"} {
		mustOK200(e.Do(http.MethodPost, "/v1/vouchers/"+c+"/redemption", []byte(`{"customer": {"source_id": "pat"},
			"order": {"source_id": "po-`+string(rune('a'+i))+`", "amount": 1000, "status": "PAID"}}`), app))
	}
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(0) || lc["pending_points"] != float64(30) {
		t.Fatalf("card with pending points %v", lc)
	}
	page := mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/pending-points?order=id", nil, app)
	entries := page["data"].([]any)
	if len(entries) != 3 || page["has_more"] != false {
		t.Fatalf("pending %v", page)
	}
	a, b := entries[0].(map[string]any), entries[1].(map[string]any)
	if a["points"] != float64(10) || a["voucher_id"] == nil || a["activates_at"] == nil {
		t.Errorf("entry %v", a)
	}
	if p := mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/pending-points?limit=1", nil, app); p["has_more"] != true ||
		p["more_starting_after"] == nil {
		t.Errorf("member page %v", p)
	}
	entry := "/v1/loyalties/members/" + code + "/pending-points/"
	// Change: +5, then a cut that would reach zero is refused.
	if ch := mustOK(t, e, http.MethodPost, entry+a["id"].(string)+"/balance", map[string]any{"points": 5}, app); ch["total"] != float64(15) {
		t.Errorf("change %v", ch)
	}
	for _, body := range []string{`{"points": -15}`, `{"points": 1.5}`, `{"points": 0}`, `{}`} {
		if r := e.Do(http.MethodPost, entry+a["id"].(string)+"/balance", []byte(body), app); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", body, r.Status, r.Body)
		}
	}
	wantErrorKey(t, e.Do(http.MethodPost, entry+"lopp_nope/activate", nil, app), 404, "not_found")

	// Two activations at once: one credits.
	second := e.AnotherServer()
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, base := range []string{e.Server.URL, second.URL} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.DoAt(base, http.MethodPost, entry+a["id"].(string)+"/activate", nil, app)
			statuses[i] = r.Status
			if r.Status == http.StatusBadRequest && r.JSON(t)["key"] != "invalid_pending_points_state" {
				t.Errorf("refusal %s", r.Body)
			}
		}()
	}
	wg.Wait()
	if statuses[0]+statuses[1] != 600 {
		t.Errorf("activations %v, want one 200 and one 400", statuses)
	}
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(15) || lc["pending_points"] != float64(20) {
		t.Errorf("after activation %v", lc)
	}
	// Cancel b: 204, then its state is final.
	mustNoContent(t, e.Do(http.MethodPost, entry+b["id"].(string)+"/cancel", nil, app))
	wantErrorKey(t, e.Do(http.MethodPost, entry+b["id"].(string)+"/cancel", nil, app), 400, "invalid_pending_points_state")
	wantErrorKey(t, e.Do(http.MethodPost, entry+b["id"].(string)+"/activate", nil, app), 400, "invalid_pending_points_state")

	// The third activates when due, once.
	if r := runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 1), 1); r.Activated != 0 {
		t.Errorf("activated %d before the day", r.Activated)
	}
	if r := runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 3), 2); r.Activated != 1 {
		t.Errorf("activated %d, want 1", r.Activated)
	}
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(25) || lc["pending_points"] != float64(0) {
		t.Errorf("after the job %v", lc)
	}
	if p := mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/pending-points", nil, app); len(p["data"].([]any)) != 0 {
		t.Errorf("pending left %v", p)
	}
	// Another project sees none of it.
	other := resttest.App(e.NewProject("Other"))
	wantErrorKey(t, e.Do(http.MethodPost, entry+a["id"].(string)+"/activate", nil, other), 404, "not_found")
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/pending-points", nil, other), 404, "not_found")
}

// TestV1ProgramExportsAndEstimate: the program's transactions and
// points-expiration exports are scheduled with their filters, and the
// points estimate evaluates the order.paid rules without writing.
func TestV1ProgramExportsAndEstimate(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := newV1Program(t, e, app, "Estimates", 0)["id"].(string)
	code := addV1Member(t, e, app, id, "est")["code"].(string)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 7}, app)

	tx := mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/transactions/export", nil, app)
	if tx["exported_object"] != "voucher_transactions" || tx["status"] != "SCHEDULED" {
		t.Errorf("transactions export %v", tx)
	}
	pe := mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/points-expiration/export",
		map[string]any{"parameters": map[string]any{"order": "-expires_at", "fields": []string{"id", "points", "expires_at"}}}, app)
	if pe["exported_object"] != "points_expiration" {
		t.Errorf("points-expiration export %v", pe)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/points-expiration/export",
		map[string]any{"parameters": map[string]any{"order": "points"}}, app), 400, "invalid_payload")
	wantErrorKey(t, e.Do(http.MethodPost, "/v1/loyalties/nope/transactions/export", nil, app), 404, "not_found")

	rules := []any{
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "FIXED", "points": 10}},
		map[string]any{"event": "order.paid", "loyalty": map[string]any{"type": "PROPORTIONAL", "calculation_type": "ORDER_AMOUNT",
			"order": map[string]any{"amount": map[string]any{"every": 1000, "points": 3}}}},
	}
	if r := e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/earning-rules", rules, app); r.Status != http.StatusOK {
		t.Fatalf("rules: %d %s", r.Status, r.Body)
	}
	est := mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/qualifications",
		map[string]any{"customer": map[string]any{"source_id": "est"}, "order": map[string]any{"amount": 12345}}, app)
	if est["points_estimation"] != float64(46) || est["campaign"].(map[string]any)["id"] != id {
		t.Errorf("estimate %v", est)
	}
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(7) {
		t.Errorf("the estimate wrote points: %v", lc)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/qualifications",
		map[string]any{"customer": map[string]any{"source_id": "stranger"}, "order": map[string]any{"amount": 1}}, app), 400, "campaign_not_allow_auto_join")
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/loyalties/"+id+"/qualifications", map[string]any{"order": map[string]any{}}, app), 400, "invalid_payload")

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
	if got := mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/tiers/"+created[0]["id"].(string)+"/rewards", nil, app); got["total"] != float64(0) {
		t.Errorf("tier rewards %v", got)
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/"+id+"/tiers/ltr_nope/rewards", nil, app), 404, "not_found")
}

// TestV1SpendingRacingExpiryKeepsTheLedger: 30 subtractions of 5 through
// two server processes race the daily job (two workers) expiring a bucket
// of 60 on a card of 100: whatever the interleaving, the balance never
// goes negative, equals the sum of the card's transactions, and equals the
// points left in its ACTIVE buckets.
func TestV1SpendingRacingExpiryKeepsTheLedger(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := newV1Program(t, e, app, "Race expiry", 0)["id"].(string)
	code := addV1Member(t, e, app, id, "racer")["code"].(string)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance",
		map[string]any{"points": 60, "expiration_type": "CUSTOM_DATE", "expiration_date": tomorrow}, app)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 40, "expiration_type": "NON_EXPIRING"}, app)
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
		runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 2), 2)
	}()
	close(start)
	wg.Wait()
	runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 2), 1) // whatever the race left due
	balance := cardPoints(t, e, app, code)["balance"].(float64)
	if balance < 0 {
		t.Fatalf("negative balance %v", balance)
	}
	var sum float64
	for _, tx := range mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any) {
		sum += tx.(map[string]any)["details"].(map[string]any)["balance"].(map[string]any)["points"].(float64)
	}
	if sum != balance {
		t.Errorf("balance %v, transactions sum to %v", balance, sum)
	}
	var inBuckets float64
	for _, b := range mustOK(t, e, http.MethodGet, "/v1/loyalties/"+id+"/members/"+code+"/points-expiration?limit=100", nil, app)["data"].([]any) {
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
	id := mustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{"name": "Exported", "type": "AUTO_UPDATE",
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": 0,
			"expiration_rules": map[string]any{"period_type": "MONTH", "period_value": 2, "rounding_type": "END_OF_MONTH"}}},
	}, app)["id"].(string)
	a := addV1Member(t, e, app, id, "xa")
	b := addV1Member(t, e, app, id, "xb")
	for _, m := range []struct {
		code string
		body map[string]any
	}{{a["code"].(string), map[string]any{"points": 50}}, {a["code"].(string), map[string]any{"points": 30, "expiration_type": "NON_EXPIRING"}},
		{b["code"].(string), map[string]any{"points": 20}}} {
		mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+m.code+"/balance", m.body, app)
	}
	download := func(exportID string) []string {
		t.Helper()
		if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
			t.Fatalf("RunOnce: %v %v", worked, err)
		}
		done := mustOK(t, e, http.MethodGet, "/v1/exports/"+exportID, nil, app)
		if done["status"] != "DONE" {
			t.Fatalf("export %v", done)
		}
		link := done["result"].(map[string]any)["url"].(string)
		r := getExport(t, e.Server.URL+link[strings.Index(link, "/v1/exports/"):])
		if r.status != http.StatusOK {
			t.Fatalf("download %d %s", r.status, r.body)
		}
		return strings.Split(strings.TrimSpace(r.body), "\n")
	}
	txExport := mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/transactions/export",
		map[string]any{"parameters": map[string]any{"fields": []string{"voucher_id", "amount"}, "order": "created_at"}}, app)
	lines := download(txExport["id"].(string))
	want := []string{"voucher_id,amount", a["id"].(string) + ",50", a["id"].(string) + ",30", b["id"].(string) + ",20"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("transactions export %q, want %q", lines, want)
	}
	peExport := mustOK(t, e, http.MethodPost, "/v1/loyalties/"+id+"/points-expiration/export", nil, app)
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
	createHook(t, e, e.NewManagementKey(), "http://127.0.0.1:9/never", tierEvents...)
	id := newV1Program(t, e, app, "Tier events", 0)["id"].(string)
	code := addV1Member(t, e, app, id, "climber")["code"].(string)
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
		mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": p}, app)
	}
	if lc := cardPoints(t, e, app, code); lc["balance"] != float64(135) {
		t.Errorf("balance %v, want 10+5+90+25-100+80+25 = 135", lc["balance"])
	}
	accruals := 0
	for _, tx := range mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/transactions?limit=100", nil, app)["data"].([]any) {
		if tx.(map[string]any)["type"] == "POINTS_ACCRUAL" {
			accruals++
		}
	}
	if accruals != 3 {
		t.Errorf("%d accruals, want 3", accruals)
	}
	if ts := mustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code+"/tiers", nil, app)["data"].([]any); len(ts) != 1 ||
		ts[0].(map[string]any)["name"] != "Gold" {
		t.Errorf("member tiers %v", ts)
	}
	for i, want := range []int{1, 2, 1, 0} { // joined, upgraded twice, downgraded once, never left
		if n := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type(tierEvents[i])).CountX(systemCtx()); n != want {
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
	id := newV1Program(t, e, app, "Deleted", 0)["id"].(string)
	code := addV1Member(t, e, app, id, "gone")["code"].(string)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance",
		map[string]any{"points": 10, "expiration_type": "CUSTOM_DATE", "expiration_date": tomorrow}, app)
	mustOK(t, e, http.MethodDelete, "/v1/loyalties/"+id, nil, app)
	if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("deletion job: %v %v", worked, err)
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/loyalties/members/"+code, nil, app), 404, "not_found")
	if r := runDailyPoints(t, e, time.Now().UTC().AddDate(0, 0, 3), 1); r.Expired != 0 {
		t.Errorf("expired %d buckets of a deleted card", r.Expired)
	}
}

// TestV1PointsBucketsThroughGraphQL: the same buckets and estimate over
// GraphQL, with the same errors.
func TestV1PointsBucketsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	id := newV1Program(t, e, app, "GraphQL buckets", 0)["id"].(string)
	code := addV1Member(t, e, app, id, "gq")["code"].(string)
	mustOK(t, e, http.MethodPost, "/v1/loyalties/members/"+code+"/balance", map[string]any{"points": 12, "expiration_type": "NON_EXPIRING"}, app)
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

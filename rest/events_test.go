package rest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/rest/resttest"
)

// must asserts a status and returns the JSON body.
func must(t *testing.T, r resttest.Response, status int) map[string]any {
	t.Helper()
	return resttest.Must(t, r, status)
}

// wantError asserts an error response's status, key and that its details mention want.
func wantError(t *testing.T, r resttest.Response, status int, key, want string) {
	t.Helper()
	resttest.WantError(t, r, status, key, want)
}

func TestMetadataSchemas(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	ms := defineEvent(t, e, app, "signed_up", map[string]any{"plan": map[string]any{"type": "string"}})
	if !strings.HasPrefix(ms["id"].(string), "ms_") || ms["object"] != "metadata_schema" || ms["name"] != "signed_up" ||
		ms["related_object"] != "event" || ms["properties"].(map[string]any)["plan"].(map[string]any)["type"] != "string" {
		t.Fatalf("schema: %v", ms)
	}
	got := must(t, e.Do(http.MethodGet, "/v1/metadata-schemas/"+ms["id"].(string), nil, app), http.StatusOK)
	if got["id"] != ms["id"] {
		t.Fatalf("get: %v", got)
	}
	list := must(t, e.Do(http.MethodGet, "/v1/metadata-schemas", nil, app), http.StatusOK)
	if list["object"] != "list" || list["total"] != 1.0 || list["data_ref"] != "schemas" || len(list["schemas"].([]any)) != 1 ||
		list["schemas"].([]any)[0].(map[string]any)["allow_defined_only"] != false {
		t.Fatalf("list: %v", list)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/metadata-schemas", map[string]any{"related_object": "event", "name": "signed_up"}, app),
		http.StatusConflict, "duplicate_found", "signed_up")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/metadata-schemas", map[string]any{"related_object": "event", "name": "x",
		"properties": map[string]any{"a": map[string]any{"type": "date-ish"}}}, app), http.StatusBadRequest, "invalid_payload", "properties.a.type")
	wantError(t, e.Do(http.MethodGet, "/v1/metadata-schemas/ms_nope", nil, app), http.StatusNotFound, "not_found", "ms_nope")

	// By resource: the schema a resource's metadata follows; a custom
	// event's schema is not a resource.
	cust := must(t, e.DoJSON(http.MethodPost, "/v1/metadata-schemas", map[string]any{"related_object": "customer", "name": "customer",
		"properties": map[string]any{"tier": map[string]any{"type": "string"}}}, app), http.StatusOK)
	if got := must(t, e.Do(http.MethodGet, "/v1/metadata-schemas/customer", nil, app), http.StatusOK); got["id"] != cust["id"] ||
		got["related_object"] != "customer" {
		t.Errorf("by resource: %v", got)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/metadata-schemas/order", nil, app), http.StatusNotFound, "not_found", "order")
	wantError(t, e.Do(http.MethodGet, "/v1/metadata-schemas/event", nil, app), http.StatusNotFound, "not_found", "event")
	wantError(t, e.Do(http.MethodGet, "/v1/metadata-schemas/customer", nil, resttest.App(e.NewProject("other"))),
		http.StatusNotFound, "not_found", "customer")

	// OAuth scopes: metadata-schemas for schemas, events for events.
	schemas := resttest.Bearer(e.Token(app, "metadata-schemas"))
	events := resttest.Bearer(e.Token(app, "events"))
	defineEvent(t, e, schemas, "scoped", nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "scoped", "customer": map[string]any{"source_id": "s"}}, events), http.StatusOK)
	must(t, e.Do(http.MethodGet, "/v1/metadata-schemas", nil, events), http.StatusForbidden)
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "scoped", "customer": map[string]any{"source_id": "s"}}, schemas), http.StatusForbidden)
}

func TestCustomEventConvertsReferral(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	defineEvent(t, e, app, "signed_up", map[string]any{
		"plan":  map[string]any{"type": "string"},
		"seats": map[string]any{"type": "number", "optional": true},
	})
	createCampaign(t, e, map[string]any{"name": "Refer a friend", "campaign_type": "REFERRAL_PROGRAM", "type": "STATIC",
		"referral_program": map[string]any{"conversion_event_type": "signed_up"},
		"voucher":          map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}})
	if r := addVoucher(t, e, "Refer a friend", map[string]any{"code": "REF-ALICE"}); r.Status != http.StatusOK {
		t.Fatalf("adding code: %d %s", r.Status, r.Body)
	}
	must(t, publish(t, e, "", map[string]any{"voucher": "REF-ALICE", "customer": map[string]any{"source_id": "alice"}}), http.StatusOK)

	event := map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "bob", "name": "Bob", "email": "bob@example.com"},
		"referral": map[string]any{"code": "REF-ALICE"}, "metadata": map[string]any{"plan": "pro", "seats": 3}}
	body := must(t, e.DoJSON(http.MethodPost, "/v1/events", event, app), http.StatusOK)
	cust := body["customer"].(map[string]any)
	if body["object"] != "event" || body["type"] != "signed_up" || body["referral"] != nil || body["loyalty"] != nil ||
		body["metadata"].(map[string]any)["plan"] != "pro" || cust["object"] != "customer" || cust["source_id"] != "bob" ||
		cust["name"] != "Bob" || cust["email"] != "bob@example.com" || !strings.HasPrefix(cust["id"].(string), "cust_") {
		t.Fatalf("event response: %s", e.DoJSON(http.MethodPost, "/v1/events", event, app).Body)
	}
	// Sent twice (the line above): still one conversion per referee and campaign.
	alice := must(t, e.Do(http.MethodGet, "/v1/customers/alice", nil, app), http.StatusOK)
	bob := must(t, e.Do(http.MethodGet, "/v1/customers/bob", nil, app), http.StatusOK)
	for _, c := range []map[string]any{alice, bob} {
		refs, ok := c["referrals"].(map[string]any)
		if !ok || refs["total"] != 1.0 {
			t.Fatalf("referrals of %s: %v", c["source_id"], c["referrals"])
		}
		entry := refs["campaigns"].([]any)[0].(map[string]any)
		if entry["referrer_id"] != alice["id"] || entry["referee_id"] != bob["id"] || !strings.HasPrefix(entry["campaign_id"].(string), "camp_") ||
			!strings.HasPrefix(entry["related_object_id"].(string), "cev_") {
			t.Fatalf("referral entry: %v", entry)
		}
	}
	// A customer without conversions keeps referrals null.
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "carol"},
		"metadata": map[string]any{"plan": "free"}}, app), http.StatusOK)
	if c := must(t, e.Do(http.MethodGet, "/v1/customers/carol", nil, app), http.StatusOK); c["referrals"] != nil {
		t.Fatalf("carol referrals: %v", c["referrals"])
	}
	listedAsRead(t, e, app) // alice and bob with their conversion, carol without
	// Self-referral is refused, and refused requests leave no event.
	wantError(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "alice"},
		"referral": map[string]any{"code": "REF-ALICE"}, "metadata": map[string]any{"plan": "pro"}}, app), http.StatusBadRequest, "invalid_referral", "own code")

	// Bad input.
	cases := []struct {
		body   map[string]any
		status int
		key    string
		want   string
	}{
		{map[string]any{"event": "bought", "customer": map[string]any{"source_id": "x"}}, 400, "invalid_event", `"bought"`},
		{map[string]any{"customer": map[string]any{"source_id": "x"}}, 400, "invalid_payload", "event"},
		{map[string]any{"event": strings.Repeat("e", 301), "customer": map[string]any{"source_id": "x"}}, 400, "invalid_payload", "1 to 300"},
		{map[string]any{"event": "signed_up"}, 400, "invalid_payload", "customer"},
		{map[string]any{"event": "signed_up", "customer": map[string]any{"name": "n"}}, 400, "invalid_payload", "source_id"},
		{map[string]any{"event": "signed_up", "customer": map[string]any{"id": "cust_unknown"}, "metadata": map[string]any{"plan": "a"}}, 404, "not_found", "cust_unknown"},
		{map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "x"}}, 400, "invalid_payload", "metadata.plan"},
		{map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "x"}, "metadata": map[string]any{"plan": 1}}, 400, "invalid_payload", "metadata.plan must be a string"},
		{map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "x"}, "metadata": map[string]any{"plan": "a", "seats": "many"}}, 400, "invalid_payload", "metadata.seats"},
		{map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "x"}, "metadata": map[string]any{"plan": "a"}, "referral": map[string]any{"code": "NOPE"}}, 404, "not_found", "NOPE"},
	}
	for _, tc := range cases {
		wantError(t, e.DoJSON(http.MethodPost, "/v1/events", tc.body, app), tc.status, tc.key, tc.want)
	}
	if c := e.Do(http.MethodGet, "/v1/customers/x", nil, app); c.Status != http.StatusNotFound {
		t.Fatalf("a refused event must not create its customer: %d %s", c.Status, c.Body)
	}
}

func TestEventMovesCustomerIntoSegment(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	defineEvent(t, e, app, "purchase", nil)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "vip", "email": "ann@vip.example"}, app), http.StatusOK)
	buyers := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "Repeat buyers", "type": "auto-update",
		"filter": map[string]any{"junction": "and", "events.purchase.count": map[string]any{"conditions": map[string]any{"$more_than": []any{"1"}}}}}, app), http.StatusOK)
	vips := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "VIPs", "type": "auto-update",
		"filter": map[string]any{"email": map[string]any{"conditions": map[string]any{"$contains": []any{"@vip."}}}}}, app), http.StatusOK)
	if buyers["object"] != "segment" || buyers["type"] != "auto-update" || !strings.HasPrefix(buyers["id"].(string), "seg_") ||
		buyers["filter"] == nil || buyers["updated_at"] != nil {
		t.Fatalf("segment: %v", buyers)
	}
	members := func(seg map[string]any) []any {
		t.Helper()
		r := e.GraphQL(app, `query($id: ID!) { segment(id: $id) { customerIDs } }`, map[string]any{"id": seg["id"]})
		if len(r.Errors) > 0 {
			t.Fatalf("graphql: %v", r.Errors)
		}
		return r.Data["segment"].(map[string]any)["customerIDs"].([]any)
	}
	if n := len(members(vips)); n != 1 {
		t.Fatalf("VIPs after creation: %d members", n)
	}
	send := func() {
		must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "purchase", "customer": map[string]any{"source_id": "vip"}}, app), http.StatusOK)
	}
	send()
	if n := len(members(buyers)); n != 0 {
		t.Fatalf("one purchase: %d members", n)
	}
	send()
	if got := members(buyers); len(got) != 1 {
		t.Fatalf("two purchases: %v", got)
	}
	// A profile change moves the customer out of the e-mail segment.
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "vip", "email": "ann@example.com"}, app), http.StatusOK)
	if n := len(members(vips)); n != 0 {
		t.Fatalf("VIPs after e-mail change: %d members", n)
	}
	// Profile fields sent with a publication count too.
	staticCampaign(t, e, "Promo", "PROMO-1")
	must(t, publish(t, e, "", map[string]any{"voucher": "PROMO-1", "customer": map[string]any{"source_id": "vip", "email": "ann@vip.example"}}), http.StatusOK)
	if n := len(members(vips)); n != 1 {
		t.Fatalf("VIPs after publication with e-mail: %d members", n)
	}
	// Static segments list their customers; bad filters are refused.
	static := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "Chosen", "type": "static", "customers": []string{"vip"}}, app), http.StatusOK)
	if static["filter"] != nil || len(members(static)) != 1 {
		t.Fatalf("static segment: %v", static)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "x", "type": "auto-update",
		"filter": map[string]any{"shoe_size": map[string]any{"conditions": map[string]any{"$is": 3}}}}, app), 400, "invalid_payload", "shoe_size")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "x", "type": "auto-update",
		"filter": map[string]any{"email": map[string]any{"conditions": map[string]any{"$near": 3}}}}, app), 400, "invalid_payload", "$near")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "x", "type": "passive"}, app), 400, "invalid_payload", "type")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "x", "type": "static", "customers": []string{"nobody"}}, app), 404, "not_found", "nobody")
}

func TestGraphQLEventsAndSegments(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	r := e.GraphQL(app, `mutation {
		createMetadataSchema(input: {relatedObject: "event", name: "login", properties: {device: {type: "string", optional: true}}}) { id name properties }
	}`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("createMetadataSchema: %v", r.Errors)
	}
	r = e.GraphQL(app, `mutation($f: Map) { createSegment(input: {name: "Active", type: "auto-update", filter: $f}) { id type } }`,
		map[string]any{"f": map[string]any{"junction": "or", "events.login.count": map[string]any{"conditions": map[string]any{"$more_than_equal": 1}}}})
	if len(r.Errors) > 0 {
		t.Fatalf("createSegment: %v", r.Errors)
	}
	seg := r.Data["createSegment"].(map[string]any)
	r = e.GraphQL(app, `mutation { sendEvent(input: {event: "login", customer: {sourceID: "dan"}, metadata: {device: "ios"}}) { id type metadata customer { sourceID } } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("sendEvent: %v", r.Errors)
	}
	ev := r.Data["sendEvent"].(map[string]any)
	if !strings.HasPrefix(ev["id"].(string), "cev_") || ev["customer"].(map[string]any)["sourceID"] != "dan" {
		t.Fatalf("event: %v", ev)
	}
	r = e.GraphQL(app, `query($id: ID!) { segment(id: $id) { customerIDs } listSegments(input: {limit: 5}) { total data { id } } }`, map[string]any{"id": seg["id"]})
	if len(r.Errors) > 0 || len(r.Data["segment"].(map[string]any)["customerIDs"].([]any)) != 1 || r.Data["listSegments"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("segment: %v %v", r.Data, r.Errors)
	}
}

// TestConcurrentEventsCountOnceAndConvertOnce sends the same conversion
// event for one new customer in parallel through two server instances:
// every event is counted, the customer is created once and the referral
// converts once.
func TestConcurrentEventsCountOnceAndConvertOnce(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	defineEvent(t, e, app, "signed_up", nil)
	createCampaign(t, e, map[string]any{"name": "Refer", "campaign_type": "REFERRAL_PROGRAM", "type": "STATIC",
		"referral_program": map[string]any{"conversion_event_type": "signed_up"},
		"voucher":          map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}})
	if r := addVoucher(t, e, "Refer", map[string]any{"code": "REF-1"}); r.Status != http.StatusOK {
		t.Fatalf("adding code: %d %s", r.Status, r.Body)
	}
	must(t, publish(t, e, "", map[string]any{"voucher": "REF-1", "customer": map[string]any{"source_id": "referrer"}}), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "Ten sign-ups", "type": "auto-update",
		"filter": map[string]any{"events.signed_up.count": map[string]any{"conditions": map[string]any{"$is": 10}}}}, app), http.StatusOK)
	const n = 10
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	body := []byte(`{"event": "signed_up", "customer": {"source_id": "newbie"}, "referral": {"code": "REF-1"}}`)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if r := e.DoAt(servers[i%2], http.MethodPost, "/v1/events", body, app); r.Status != http.StatusOK {
				t.Errorf("event %d: %d %s", i, r.Status, r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	counts, err := e.DB.Client.CustomerEventCount.Query().All(systemCtx())
	if err != nil || len(counts) != 1 || counts[0].Count != n {
		t.Fatalf("counters: %v %v", counts, err)
	}
	convs, err := e.DB.Client.ReferralConversion.Query().Count(systemCtx())
	if err != nil || convs != 1 {
		t.Fatalf("conversions: %d %v", convs, err)
	}
	members, err := e.DB.Client.SegmentMember.Query().Count(systemCtx())
	if err != nil || members != 1 {
		t.Fatalf("members of the ten-sign-ups segment: %d %v", members, err)
	}
}

// recordingEarning is a loyalty hook that records its calls and can fail.
type recordingEarning struct {
	mu       sync.Mutex
	events   []string
	entered  [][]string
	loyalty  []string
	failWith error
}

func (r *recordingEarning) EventRecorded(ctx context.Context, ev *ent.CustomEvent, _ *ent.Customer, l *customer.EventLoyaltyInput) error {
	// The hook runs inside the event's transaction: the event is visible.
	if _, err := ent.FromContext(ctx).CustomEvent.Get(ctx, ev.ID); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev.Type)
	if l != nil {
		r.loyalty = append(r.loyalty, l.Code)
	}
	return r.failWith
}

func (r *recordingEarning) SegmentsEntered(_ context.Context, _ *ent.Customer, ids []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entered = append(r.entered, ids)
	return nil
}

func (r *recordingEarning) OrderPaid(context.Context, *ent.Order, *ent.Customer) error { return nil }

// TestLoyaltyEarningHook: the hook sees every event (with its loyalty
// card) and segment entry in the event's transaction; its error rolls
// the event back.
func TestLoyaltyEarningHook(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	hook := &recordingEarning{}
	prev := customer.Earning
	customer.Earning = hook
	defer func() { customer.Earning = prev }()
	defineEvent(t, e, app, "visit", nil)
	seg := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "Visitors", "type": "auto-update",
		"filter": map[string]any{"events.visit.count": map[string]any{"conditions": map[string]any{"$more_than": 0}}}}, app), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "v"},
		"loyalty": map[string]any{"code": "CARD-1"}}, app), http.StatusOK)
	hook.mu.Lock()
	if len(hook.events) != 1 || len(hook.loyalty) != 1 || hook.loyalty[0] != "CARD-1" || len(hook.entered) != 1 || hook.entered[0][0] != seg["id"] {
		t.Fatalf("hook calls: %+v", hook)
	}
	hook.failWith = apperr.New(http.StatusBadRequest, "earning_failed", "Earning failed", "no card")
	hook.mu.Unlock()
	wantError(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit", "customer": map[string]any{"source_id": "w"}}, app),
		http.StatusBadRequest, "earning_failed", "no card")
	if n, _ := e.DB.Client.CustomEvent.Query().Count(systemCtx()); n != 1 {
		t.Fatalf("events stored: %d, want the failed one rolled back", n)
	}
}

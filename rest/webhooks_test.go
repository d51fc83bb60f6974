package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// hookPayload is a webhook body as a receiver decodes it.
type hookPayload struct {
	ID        string         `json:"id"`
	Object    string         `json:"object"`
	ProjectID string         `json:"project_id"`
	WebhookID string         `json:"webhook_id"`
	CreatedAt string         `json:"created_at"`
	Type      string         `json:"type"`
	Data      map[string]any `json:"data"`
}

// hookRequest is one request a receiver got, with what it answered.
type hookRequest struct {
	Body      []byte
	Signature string
	Payload   hookPayload
	Status    int
	// At is when the request arrived.
	At time.Time
}

// receiver is a webhook target on loopback that records what it gets. It
// answers 200 unless answer says otherwise, can hold requests (hold) and
// notices an event being delivered twice at the same time (overlap).
type receiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []hookRequest
	// answer is the status for the n-th request (from 0); nil: 200.
	answer func(n int, p hookPayload) int
	// delay is how long each request takes.
	delay time.Duration
	// hold, when set, keeps each request until it is closed; arrived is
	// told of each request first.
	hold, arrived chan struct{}
	inflight      map[string]int
	overlap       bool
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{inflight: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(req.Body)
	var p hookPayload
	_ = json.Unmarshal(body, &p)
	r.mu.Lock()
	n := len(r.got) + func() int {
		c := 0
		for _, k := range r.inflight {
			c += k
		}
		return c
	}()
	r.inflight[p.ID]++
	if r.inflight[p.ID] > 1 {
		r.overlap = true
	}
	answer, delay, hold, arrived := r.answer, r.delay, r.hold, r.arrived
	r.mu.Unlock()
	if arrived != nil {
		arrived <- struct{}{}
	}
	if hold != nil {
		<-hold
	}
	time.Sleep(delay)
	status := http.StatusOK
	if answer != nil {
		status = answer(n, p)
	}
	r.mu.Lock()
	r.inflight[p.ID]--
	r.got = append(r.got, hookRequest{Body: body, Signature: req.Header.Get(webhook.SignatureHeader), Payload: p, Status: status, At: at})
	r.mu.Unlock()
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"ok":true}`))
}

// requests returns what the receiver has answered so far.
func (r *receiver) requests() []hookRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// delivered returns the payloads answered 2xx, in the order they arrived.
func (r *receiver) delivered() []hookPayload {
	var out []hookPayload
	for _, q := range r.requests() {
		if q.Status/100 == 2 {
			out = append(out, q.Payload)
		}
	}
	return out
}

// waitFor polls cond until it holds, failing the test after 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fastWebhooks retry within milliseconds.
var fastWebhooks = webhook.Settings{Timeout: 5 * time.Second, RetryBase: 10 * time.Millisecond, RetryMaxStep: 40 * time.Millisecond}

// startWorker runs a job and delivery worker on client until the test ends.
func startWorker(t *testing.T, e *resttest.Env, client *ent.Client, s webhook.Settings) *job.Worker {
	t.Helper()
	w := &job.Worker{Client: client, Dialect: e.DB.Dialect, Logger: quietLogger, Poll: 10 * time.Millisecond,
		BatchSize: 500, Webhooks: s}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	return w
}

// hookEvents lists a webhook's events (query: e.g. "?status=FAILED").
func hookEvents(t *testing.T, e *resttest.Env, mk resttest.Headers, hookID, query string) []map[string]any {
	t.Helper()
	list := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hookID+"/events"+query, nil, mk), http.StatusOK)
	var out []map[string]any
	for _, item := range list["data"].([]any) {
		out = append(out, item.(map[string]any))
	}
	return out
}

// waitDelivered waits until n events of the webhook are DELIVERED: a
// receiver has its request before the worker records the outcome.
func waitDelivered(t *testing.T, e *resttest.Env, mk resttest.Headers, hookID string, n int) {
	t.Helper()
	waitFor(t, "events recorded as delivered", func() bool { return len(hookEvents(t, e, mk, hookID, "?status=DELIVERED")) == n })
}

func webhookToken(t *testing.T, e *resttest.Env, mk resttest.Headers) string {
	t.Helper()
	p := must(t, e.Do(http.MethodGet, "/management/v1/projects/"+e.Project.ProjectID, nil, mk), http.StatusOK)
	token, _ := p["webhook_token"].(string)
	return token
}

func TestWebhookManagement(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	path := hooksPath(e)

	created := createHook(t, e, mk, "https://hooks.example.com/promo", "redemption.succeeded", "voucher.gift.balance_aded", "redemption.succeeded")
	id, _ := created["id"].(string)
	if !regexp.MustCompile(`^wh_[0-9A-Za-z]{24}$`).MatchString(id) || created["object"] != "webhook" ||
		created["active"] != true || created["target_url"] != "https://hooks.example.com/promo" ||
		!timestampRE.MatchString(created["created_at"].(string)) {
		t.Fatalf("created webhook: %v", created)
	}
	// The real service's misspelt enum value is stored as its examples spell it; duplicates go.
	if got := mustJSON(created["events"]); got != `["redemption.succeeded","voucher.gift.balance_added"]` {
		t.Fatalf("events = %s", got)
	}

	for _, bad := range []struct {
		body    map[string]any
		details string
	}{
		{map[string]any{"events": []string{"voucher.created"}}, "target_url"},
		{map[string]any{"target_url": "https://x.example.com"}, "events"},
		{map[string]any{"target_url": "ftp://x.example.com", "events": []string{"voucher.created"}}, "target_url"},
		{map[string]any{"target_url": "not a url", "events": []string{"voucher.created"}}, "target_url"},
		{map[string]any{"target_url": "https://u:p@x.example.com", "events": []string{"voucher.created"}}, "credentials"},
		{map[string]any{"target_url": "https://x.example.com", "events": []string{}}, "at least one"},
		{map[string]any{"target_url": "https://x.example.com", "events": []string{"voucher.exploded"}}, "voucher.exploded"},
	} {
		wantError(t, e.DoJSON(http.MethodPost, path, bad.body, mk), http.StatusBadRequest, "invalid_payload", bad.details)
	}
	// Loopback is fine for self-hosting (the default).
	createHook(t, e, mk, "http://127.0.0.1:9/hook", "customer.created")

	list := must(t, e.Do(http.MethodGet, path, nil, mk), http.StatusOK)
	if list["object"] != "list" || list["data_ref"] != "data" || list["total"] != float64(2) ||
		list["data"].([]any)[0].(map[string]any)["id"] != id {
		t.Fatalf("list: %v", list)
	}
	if got := must(t, e.Do(http.MethodGet, path+"/"+id, nil, mk), http.StatusOK); got["id"] != id {
		t.Fatalf("get: %v", got)
	}

	// PUT replaces the events; active stays unless given.
	upd := must(t, e.DoJSON(http.MethodPut, path+"/"+id, map[string]any{"target_url": "https://other.example.com/x",
		"events": []string{"voucher.created"}}, mk), http.StatusOK)
	if upd["target_url"] != "https://other.example.com/x" || mustJSON(upd["events"]) != `["voucher.created"]` || upd["active"] != true {
		t.Fatalf("update: %v", upd)
	}
	upd = must(t, e.DoJSON(http.MethodPut, path+"/"+id, map[string]any{"target_url": "https://other.example.com/x",
		"events": []string{"voucher.created"}, "active": false}, mk), http.StatusOK)
	if upd["active"] != false {
		t.Fatalf("deactivate: %v", upd)
	}
	wantError(t, e.DoJSON(http.MethodPut, path+"/"+id, map[string]any{"events": []string{"voucher.created"}}, mk),
		http.StatusBadRequest, "invalid_payload", "target_url")

	// Another project's webhook is not found; no credentials is 401.
	other := e.NewProject("project B")
	must(t, e.Do(http.MethodGet, "/management/v1/projects/"+other.ProjectID+"/webhooks/"+id, nil, mk), http.StatusNotFound)
	must(t, e.Do(http.MethodGet, path, nil, resttest.App(e.Project)), http.StatusUnauthorized)

	if r := e.Do(http.MethodDelete, path+"/"+id, nil, mk); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	must(t, e.Do(http.MethodGet, path+"/"+id, nil, mk), http.StatusNotFound)
	must(t, e.Do(http.MethodDelete, path+"/"+id, nil, mk), http.StatusNotFound)
}

func TestProjectWebhookToken(t *testing.T) {
	e := resttest.New(t)
	mk := e.NewManagementKey()
	project := "/management/v1/projects/" + e.Project.ProjectID
	r := e.Do(http.MethodGet, project, nil, mk)
	token, _ := must(t, r, http.StatusOK)["webhook_token"].(string)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(token) || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("webhook_token %q, Cache-Control %q", token, r.Header.Get("Cache-Control"))
	}
	if again := webhookToken(t, e, mk); again != token {
		t.Fatalf("token changed on read: %s then %s", token, again)
	}
	fresh := must(t, e.Do(http.MethodPost, project+"/webhook-token/regenerate", nil, mk), http.StatusOK)
	if fresh["webhook_token"] == token || fresh["id"] != e.Project.ProjectID || webhookToken(t, e, mk) != fresh["webhook_token"] {
		t.Fatalf("regenerated: %v (was %s)", fresh["webhook_token"], token)
	}

	// A project stored before webhooks existed gets a token when first read.
	if err := e.DB.Client.Project.UpdateOneID(e.Project.ProjectID).ClearWebhookToken().Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	if lazy := webhookToken(t, e, mk); len(lazy) != 64 || lazy == fresh["webhook_token"] || webhookToken(t, e, mk) != lazy {
		t.Fatalf("lazy token: %q", lazy)
	}
}

// staticResolver resolves names from a table (the tests have no DNS).
type staticResolver map[string]string

func (r staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	a, ok := r[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	return []netip.Addr{netip.MustParseAddr(a)}, nil
}

func TestWebhookTargetsCanBeLimitedToPublicAddresses(t *testing.T) {
	e := resttest.NewWithOptions(t, func(o *rest.Options) {
		o.WebhookDenyPrivate = true
		o.WebhookResolver = staticResolver{"hooks.example.com": "93.184.216.34", "internal.example.com": "10.0.0.9"}
	})
	mk := e.NewManagementKey()
	for _, target := range []string{"http://127.0.0.1:8080/x", "http://localhost/x", "http://10.0.0.7/x",
		"http://[::1]/x", "http://169.254.169.254/latest/meta-data/", "http://127.1/x", "http://2130706433/x",
		"http://0x7f000001/x", "http://0177.0.0.1/x", "http://[::ffff:127.0.0.1]/x", "http://0/x", "http://127.0.0.1./x",
		"http://internal.example.com/x"} {
		wantError(t, e.DoJSON(http.MethodPost, hooksPath(e), map[string]any{"target_url": target, "events": []string{"voucher.created"}}, mk),
			http.StatusBadRequest, "invalid_payload", "private or loopback")
	}
	wantError(t, e.DoJSON(http.MethodPost, hooksPath(e), map[string]any{"target_url": "https://nowhere.example.com/x", "events": []string{"voucher.created"}}, mk),
		http.StatusBadRequest, "invalid_payload", "does not resolve")
	createHook(t, e, mk, "https://93.184.216.34/hook", "voucher.created")
	createHook(t, e, mk, "https://hooks.example.com/hook", "voucher.created")
}

// TestWebhookDeliveryRefusesPrivateAddresses: deliveries check the address
// they connect to as well, so a target set while allowed (or a name that
// resolves differently later) is refused.
func TestWebhookDeliveryRefusesPrivateAddresses(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	rcv := newReceiver(t)
	ctx := viewer.NewContext(ent.NewContext(context.Background(), e.DB.Client), viewer.Viewer{ProjectID: e.Project.ProjectID})
	hook, err := webhook.CreateWebhook(ctx, webhook.WebhookInput{TargetURL: &rcv.srv.URL, Events: []string{"customer.created"}})
	if err != nil {
		t.Fatal(err)
	}
	s := fastWebhooks
	s.DenyPrivate, s.RetryWindow = true, 50*time.Millisecond
	startWorker(t, e, e.DB.Client, s)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "c1"}, resttest.App(e.Project)), http.StatusOK)
	waitFor(t, "the event to fail", func() bool { return len(hookEvents(t, e, mk, hook.ID, "?status=FAILED")) == 1 })
	ds := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hook.ID+"/deliveries", nil, mk), http.StatusOK)["data"].([]any)
	first := ds[len(ds)-1].(map[string]any)
	if first["success"] != false || first["status_code"] != nil || !regexp.MustCompile(`non-public address`).MatchString(first["error"].(string)) {
		t.Fatalf("delivery to loopback: %v", first)
	}
	if len(rcv.requests()) != 0 {
		t.Fatal("the loopback receiver was called")
	}
}

func TestWebhookIsSignedAndCarriesRESTShapes(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	rcv := newReceiver(t)
	hook := createHook(t, e, mk, rcv.srv.URL+"/hooks?src=promo", "campaign.created")
	startWorker(t, e, e.DB.Client, fastWebhooks)

	cmp := createCampaign(t, e, map[string]any{"name": "Signed", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10}}})
	waitDelivered(t, e, mk, hook["id"].(string), 1)
	got := rcv.requests()[0]

	if want := webhook.SignWebhook(webhookToken(t, e, mk), got.Body); got.Signature != want {
		t.Fatalf("signature %q, want %q", got.Signature, want)
	}
	if webhook.SignWebhook("another token", got.Body) == got.Signature {
		t.Fatal("signature does not depend on the token")
	}
	p := got.Payload
	if !regexp.MustCompile(`^whs_[0-9a-f]{32}$`).MatchString(p.ID) || p.Object != "event" || p.Type != "campaign.created" ||
		p.ProjectID != e.Project.ProjectID || p.WebhookID != hook["id"] || !timestampRE.MatchString(p.CreatedAt) {
		t.Fatalf("payload: %s", got.Body)
	}
	// data.campaign is the campaign exactly as the REST API showed it.
	if mustJSON(p.Data["campaign"]) != mustJSON(cmp) {
		t.Fatalf("data.campaign:\n%s\nREST:\n%s", mustJSON(p.Data["campaign"]), mustJSON(cmp))
	}

	ds := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hook["id"].(string)+"/deliveries", nil, mk), http.StatusOK)
	d := ds["data"].([]any)[0].(map[string]any)
	if ds["total"] != float64(1) || d["object"] != "webhook_delivery" || d["event_id"] != p.ID || d["attempt"] != float64(1) ||
		d["status_code"] != float64(200) || d["success"] != true || d["error"] != nil || d["target_url"] != rcv.srv.URL+"/hooks?src=promo" {
		t.Fatalf("deliveries: %v", ds)
	}
	ev := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hook["id"].(string)+"/events/"+p.ID, nil, mk), http.StatusOK)
	if ev["status"] != "DELIVERED" || ev["attempts"] != float64(1) || ev["related_object_type"] != "campaign" ||
		ev["related_object_id"] != cmp["id"] || ev["next_attempt_at"] != nil || ev["delivered_at"] == nil ||
		mustJSON(ev["data"]) != mustJSON(p.Data) {
		t.Fatalf("event: %v", ev)
	}
}

func TestWebhookIsRetriedAfterFailures(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	rcv := newReceiver(t)
	rcv.answer = func(n int, _ hookPayload) int {
		if n < 2 {
			return http.StatusInternalServerError
		}
		return http.StatusNoContent
	}
	hook := createHook(t, e, mk, rcv.srv.URL, "customer.created")
	startWorker(t, e, e.DB.Client, fastWebhooks)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "ann"}, resttest.App(e.Project)), http.StatusOK)

	waitDelivered(t, e, mk, hook["id"].(string), 1)
	reqs := rcv.requests()
	if len(reqs) != 3 || reqs[0].Payload.ID != reqs[2].Payload.ID || string(reqs[0].Body) != string(reqs[2].Body) ||
		reqs[0].Signature != reqs[2].Signature {
		t.Fatalf("want the same body three times, got %d requests", len(reqs))
	}
	ds := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hook["id"].(string)+"/deliveries", nil, mk), http.StatusOK)["data"].([]any)
	var attempts []string
	for _, d := range ds {
		d := d.(map[string]any)
		attempts = append(attempts, mustJSON([]any{d["attempt"], d["status_code"], d["success"]}))
	}
	if got := mustJSON(attempts); got != `["[3,204,true]","[2,500,false]","[1,500,false]"]` {
		t.Fatalf("attempts (newest first): %s", got)
	}
	if e1 := ds[2].(map[string]any)["error"]; e1 != `HTTP 500: {"ok":true}` {
		t.Fatalf("error of a 500: %v", e1)
	}
	evs := hookEvents(t, e, mk, hook["id"].(string), "")
	if len(evs) != 1 || evs[0]["status"] != "DELIVERED" || evs[0]["attempts"] != float64(3) {
		t.Fatalf("events: %v", evs)
	}
}

func TestWebhookEventsOfOneObjectArriveInOrder(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	rcv := newReceiver(t)
	// The first event fails twice: the later ones must wait for it.
	rcv.answer = func(n int, _ hookPayload) int {
		if n < 2 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}
	createHook(t, e, mk, rcv.srv.URL, "voucher.updated")
	discountCode(t, e, app, "Ordered", "ORD-1", map[string]any{"type": "AMOUNT", "amount_off": 100}, nil)
	const n = 6
	for i := 1; i <= n; i++ {
		must(t, e.DoJSON(http.MethodPut, "/v1/vouchers/ORD-1", map[string]any{"metadata": map[string]any{"n": i}}, app), http.StatusOK)
	}
	// Several workers at once, as several processes would.
	for range 3 {
		startWorker(t, e, e.DB.Client, fastWebhooks)
	}
	waitFor(t, "every update", func() bool { return len(rcv.delivered()) == n })
	seqOf := func(p hookPayload) int {
		return int(num(p.Data["voucher"].(map[string]any)["metadata"].(map[string]any)["n"]))
	}
	done := 0
	for _, q := range rcv.requests() {
		if k := seqOf(q.Payload); k != done+1 {
			t.Fatalf("update %d sent while update %d was not delivered yet (order %v)", k, done+1, requestOrder(rcv, seqOf))
		}
		if q.Status == http.StatusOK {
			done++
		}
	}
}

func requestOrder(rcv *receiver, seq func(hookPayload) int) []int {
	var out []int
	for _, q := range rcv.requests() {
		out = append(out, seq(q.Payload))
	}
	return out
}

func TestFailedWebhookEventCanBeRedelivered(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	rcv := newReceiver(t)
	var mu sync.Mutex
	up := false
	rcv.answer = func(int, hookPayload) int {
		mu.Lock()
		defer mu.Unlock()
		if up {
			return http.StatusOK
		}
		return http.StatusBadGateway
	}
	hook := createHook(t, e, mk, rcv.srv.URL, "customer.created")
	hookID := hook["id"].(string)
	s := fastWebhooks
	// How many tries fit in the window depends on the machine's load; the
	// test needs at least one, each counted, and then the end of retries.
	s.RetryWindow = 300 * time.Millisecond
	startWorker(t, e, e.DB.Client, s)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, resttest.App(e.Project)), http.StatusOK)

	waitFor(t, "the event to fail", func() bool { return len(hookEvents(t, e, mk, hookID, "?status=FAILED")) == 1 })
	failed := hookEvents(t, e, mk, hookID, "?status=failed")[0]
	tries := len(rcv.requests())
	if tries < 1 || failed["attempts"] != float64(tries) || failed["next_attempt_at"] != nil {
		t.Fatalf("failed event after %d tries: %v", tries, failed)
	}

	mu.Lock()
	up = true
	mu.Unlock()
	redeliver := hooksPath(e) + "/" + hookID + "/events/" + failed["id"].(string) + "/redeliver"
	if again := must(t, e.Do(http.MethodPost, redeliver, nil, mk), http.StatusAccepted); again["status"] != "PENDING" {
		t.Fatalf("redeliver: %v", again)
	}
	waitDelivered(t, e, mk, hookID, 1)
	if ev := hookEvents(t, e, mk, hookID, "")[0]; ev["status"] != "DELIVERED" || ev["attempts"] != float64(tries+1) {
		t.Fatalf("after redelivery: %v", ev)
	}
	must(t, e.Do(http.MethodPost, hooksPath(e)+"/"+hookID+"/events/whs_nope/redeliver", nil, mk), http.StatusNotFound)
	wantError(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hookID+"/events?status=LOST", nil, mk), http.StatusBadRequest, "invalid_query_params", "status")
}

// TestWebhookTwoWorkersNeverDeliverOneEventTwiceAtOnce runs two workers on two
// connection pools (as two server processes would) over many events.
func TestWebhookTwoWorkersNeverDeliverOneEventTwiceAtOnce(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	rcv := newReceiver(t)
	rcv.delay = 5 * time.Millisecond
	createHook(t, e, mk, rcv.srv.URL, "customer.created")
	createHook(t, e, mk, rcv.srv.URL+"/second", "customer.created")
	const n = 40
	for i := range n {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": fmt.Sprintf("cust-%d", i)}, resttest.App(e.Project)), http.StatusOK)
	}
	other, err := entdb.Open(context.Background(), e.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	s := fastWebhooks
	s.Concurrency = 4
	startWorker(t, e, e.DB.Client, s)
	startWorker(t, e, other.Client, s)

	waitFor(t, "every event", func() bool { return len(rcv.delivered()) >= 2*n })
	time.Sleep(100 * time.Millisecond) // room for a duplicate to show up
	seen := map[string]int{}
	for _, p := range rcv.delivered() {
		seen[p.ID]++
	}
	rcv.mu.Lock()
	overlap := rcv.overlap
	rcv.mu.Unlock()
	if overlap || len(seen) != 2*n || len(rcv.requests()) != 2*n {
		t.Fatalf("overlap %v, %d distinct events in %d requests, want %d once each", overlap, len(seen), len(rcv.requests()), 2*n)
	}
}

// TestWebhookEventSurvivesWithoutAWorker is the "kill -9" case: the change
// commits and no process delivers (it died, or none runs yet); the event
// waits in the outbox and a worker started later delivers it. A worker
// that died holding a claim delays the event until its lease ends.
func TestWebhookEventSurvivesWithoutAWorker(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	rcv := newReceiver(t)
	hook := createHook(t, e, mk, rcv.srv.URL, "customer.created")
	hookID := hook["id"].(string)
	for _, id := range []string{"early", "claimed"} {
		must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": id}, resttest.App(e.Project)), http.StatusOK)
	}
	// Updating a customer by source_id is not customer.created.
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "early", "name": "Early"}, resttest.App(e.Project)), http.StatusOK)
	evs := hookEvents(t, e, mk, hookID, "")
	if len(evs) != 2 || evs[0]["status"] != "PENDING" || evs[1]["status"] != "PENDING" || evs[0]["attempts"] != float64(0) {
		t.Fatalf("outbox before any worker: %v", evs)
	}
	// The newer event was claimed by a worker that then died.
	lease := time.Now().UTC().Add(300 * time.Millisecond)
	if err := e.DB.Client.WebhookEvent.UpdateOneID(evs[0]["id"].(string)).SetClaimedBy("dead-worker").SetLeaseUntil(lease).
		Exec(viewer.NewSystemContext(context.Background())); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if len(rcv.requests()) != 0 {
		t.Fatal("delivered without a worker")
	}

	startWorker(t, e, e.DB.Client, fastWebhooks)
	waitDelivered(t, e, mk, hookID, 2)
	got := rcv.requests()
	if len(got) != 2 || got[0].Payload.Data["customer"].(map[string]any)["source_id"] != "early" || got[1].At.Before(lease) {
		t.Fatalf("want the free event first and the claimed one after its lease (%s), got %d requests", lease, len(got))
	}
	for _, ev := range hookEvents(t, e, mk, hookID, "") {
		if ev["status"] != "DELIVERED" {
			t.Fatalf("event %v", ev)
		}
	}
}

func TestNoWebhookEventForARolledBackChange(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	hook := createHook(t, e, mk, "http://127.0.0.1:9/never", "campaign.created", "customer.created", "publication.succeeded", "voucher.published")
	body := map[string]any{"name": "Once", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}
	createCampaign(t, e, body)
	// A duplicate name fails after the insert was tried: nothing is kept.
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", body, app), http.StatusConflict)
	// The publication creates the customer (and writes customer.created)
	// before finding the campaign has no voucher left: all of it rolls back.
	must(t, publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "Once"}, "customer": map[string]any{"source_id": "ghost"}}),
		http.StatusBadRequest)
	must(t, e.Do(http.MethodGet, "/v1/customers/ghost", nil, app), http.StatusNotFound)

	evs := hookEvents(t, e, mk, hook["id"].(string), "")
	if len(evs) != 1 || evs[0]["type"] != "campaign.created" {
		t.Fatalf("events: %v", evs)
	}
	n, err := e.DB.Client.WebhookEvent.Query().Where(webhookevent.Type("customer.created")).Count(viewer.NewSystemContext(context.Background()))
	if err != nil || n != 0 {
		t.Fatalf("customer.created rows: %d (%v)", n, err)
	}
}

// TestSlowWebhookReceiverDoesNotHoldUpRequests: while the receiver holds a
// delivery open, requests that write events still answer.
func TestSlowWebhookReceiverDoesNotHoldUpRequests(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	rcv := newReceiver(t)
	rcv.hold, rcv.arrived = make(chan struct{}), make(chan struct{}, 16)
	released := false
	release := func() {
		if !released {
			released = true
			close(rcv.hold)
		}
	}
	t.Cleanup(release)
	createHook(t, e, mk, rcv.srv.URL, "customer.created")
	startWorker(t, e, e.DB.Client, fastWebhooks)

	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "first"}, app), http.StatusOK)
	select {
	case <-rcv.arrived: // the delivery is now stuck in the receiver
	case <-time.After(30 * time.Second):
		t.Fatal("no delivery arrived")
	}
	answered := make(chan resttest.Response, 1)
	go func() {
		answered <- e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "second"}, app)
	}()
	select {
	case r := <-answered:
		must(t, r, http.StatusOK)
	case <-time.After(30 * time.Second):
		t.Fatal("a request waited for the webhook receiver")
	}
	if len(rcv.requests()) != 0 {
		t.Fatal("the receiver answered before it was released")
	}
	release()
	waitFor(t, "both deliveries", func() bool { return len(rcv.delivered()) == 2 })
}

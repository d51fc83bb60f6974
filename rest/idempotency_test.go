package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/idempotencykey"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// keyed returns h with an Idempotency-Key.
func keyed(h resttest.Headers, key string) resttest.Headers {
	return resttest.Merge(h, resttest.Headers{rest.IdempotencyKeyHeader: key})
}

func replayed(r resttest.Response) bool { return r.Header.Get(rest.IdempotentReplayedHeader) == "true" }

// sameAnswer fails unless again repeats first (status, body, content
// type) and says it is a replay.
func sameAnswer(t *testing.T, first, again resttest.Response) {
	t.Helper()
	if replayed(first) {
		t.Errorf("the first answer is marked replayed")
	}
	if again.Status != first.Status || !bytes.Equal(again.Body, first.Body) || !replayed(again) ||
		again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("not a replay:\nfirst %d %v %s\nagain %d %v %s", first.Status, first.Header, first.Body, again.Status, again.Header, again.Body)
	}
}

func publicationCount(t *testing.T, e *resttest.Env) int {
	t.Helper()
	return e.DB.Client.Publication.Query().CountX(systemCtx())
}

// TestIdempotencyReplaysTheFirstAnswer: the same key, credential and body
// get the first answer without acting again; another body under the key
// is refused; the key means nothing to another key of the project or to
// another project.
func TestIdempotencyReplaysTheFirstAnswer(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "idem", "I1", "I2", "I3", "I4", "I5")
	body := map[string]any{"campaign": map[string]any{"name": "idem"}, "customer": map[string]any{"source_id": "alice"}}

	first := e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "order-1"))
	if first.Status != http.StatusOK {
		t.Fatalf("%d %s", first.Status, first.Body)
	}
	again := e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "order-1"))
	sameAnswer(t, first, again)
	if again.Header.Get(rest.RequestIDHeader) == first.Header.Get(rest.RequestIDHeader) {
		t.Error("a replay kept the first request's id")
	}
	if n := publicationCount(t, e); n != 1 {
		t.Fatalf("%d publications, want 1", n)
	}

	// Another body, another path or another query under the key: 422.
	other := map[string]any{"campaign": map[string]any{"name": "idem"}, "customer": map[string]any{"source_id": "bob"}}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/publications", other, keyed(app, "order-1")), http.StatusUnprocessableEntity, "idempotency_key_reused", "")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/publications?join_once=true", body, keyed(app, "order-1")), http.StatusUnprocessableEntity, "idempotency_key_reused", "")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "alice"}, keyed(app, "order-1")), http.StatusUnprocessableEntity, "idempotency_key_reused", "")
	// An OAuth token of the same key is the same credential.
	token := e.Token(app, "api")
	sameAnswer(t, first, e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(resttest.Bearer(token), "order-1")))

	// Without a key, or with another one, the request acts.
	if r := e.DoJSON(http.MethodPost, "/v1/publications", body, app); r.Status != http.StatusOK || replayed(r) {
		t.Fatalf("without a key: %d %s", r.Status, r.Body)
	}
	if r := e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "order-2")); r.Status != http.StatusOK || replayed(r) {
		t.Fatalf("another key: %d %s", r.Status, r.Body)
	}
	// Another application key of the project, and another project, have
	// keys of their own.
	second, _ := newKey(t, e, e.NewManagementKey(), map[string]any{"name": "second"})
	if r := e.DoJSON(http.MethodPost, "/v1/publications", other, keyed(second, "order-1")); r.Status != http.StatusOK || replayed(r) {
		t.Fatalf("another key of the project: %d %s", r.Status, r.Body)
	}
	if n := publicationCount(t, e); n != 4 {
		t.Fatalf("%d publications, want 4", n)
	}
	otherProject := resttest.App(e.NewProject("project B"))
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "idem", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, otherProject), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/campaigns/idem/vouchers", map[string]any{"code": "B1"}, otherProject), http.StatusOK)
	r := e.DoJSON(http.MethodPost, "/v1/publications", other, keyed(otherProject, "order-1"))
	if r.Status != http.StatusOK || replayed(r) || r.JSON(t)["voucher"].(map[string]any)["code"] != "B1" {
		t.Fatalf("another project: %d %s", r.Status, r.Body)
	}
	// The keys are stored per project and credential.
	rows := e.DB.Client.IdempotencyKey.Query().Where(idempotencykey.Key("order-1")).AllX(systemCtx())
	if len(rows) != 3 {
		t.Fatalf("%d rows for order-1, want 3", len(rows))
	}
	for _, row := range rows {
		if row.State != idempotencykey.StateDONE || row.Credential == "" || row.ProjectID == "" ||
			row.ExpiresAt.Sub(row.CreatedAt) != 24*time.Hour {
			t.Errorf("stored key = %+v", row)
		}
	}
}

// TestIdempotencyReplaysClientErrors: a 4xx answer is the answer; fixing
// the cause does not change what the key replays.
func TestIdempotencyReplaysClientErrors(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	body := map[string]any{"campaign": map[string]any{"name": "later"}, "customer": map[string]any{"source_id": "alice"}}
	first := e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "k-404"))
	if first.Status < 400 || first.Status > 499 {
		t.Fatalf("%d %s", first.Status, first.Body)
	}
	staticCampaign(t, e, "later", "L1")
	sameAnswer(t, first, e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "k-404")))
	if n := publicationCount(t, e); n != 0 {
		t.Fatalf("%d publications", n)
	}
}

// TestIdempotencyKeyForm: keys of 1 to 255 characters; other methods and
// the OAuth endpoints (whose answers carry secrets) ignore the header.
func TestIdempotencyKeyForm(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	customer := map[string]any{"source_id": "alice"}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers", customer, keyed(app, strings.Repeat("k", 256))), http.StatusBadRequest, "invalid_idempotency_key", "255")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers", customer, keyed(app, "  ")), http.StatusBadRequest, "invalid_idempotency_key", "")
	long := strings.Repeat("ż", 255)
	first := must(t, e.DoJSON(http.MethodPost, "/v1/customers", customer, keyed(app, long)), http.StatusOK)
	if r := e.DoJSON(http.MethodPost, "/v1/customers", customer, keyed(app, long)); !replayed(r) || r.JSON(t)["id"] != first["id"] {
		t.Fatalf("255-character key: %d %s", r.Status, r.Body)
	}
	// Authentication comes first: a bad credential is a 401, not stored.
	wantError(t, e.DoJSON(http.MethodPost, "/v1/customers", customer, keyed(resttest.Headers{"X-App-Id": e.Project.AppID, "X-App-Token": "nope"}, "k")), http.StatusUnauthorized, "unauthorized", "")
	// GET ignores the header.
	for range 2 {
		if r := e.Do(http.MethodGet, "/v1/customers/alice", nil, keyed(app, long)); r.Status != http.StatusOK || replayed(r) {
			t.Fatalf("GET: %d %v", r.Status, r.Header)
		}
	}
	// OAuth tokens are issued afresh and never stored.
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"api"}}
	t1 := e.Form("/v1/oauth/token", form, keyed(app, "tok"))
	t2 := e.Form("/v1/oauth/token", form, keyed(app, "tok"))
	if t1.Status != http.StatusOK || t2.Status != http.StatusOK || replayed(t2) || bytes.Equal(t1.Body, t2.Body) {
		t.Fatalf("OAuth token with a key: %d %d %s", t1.Status, t2.Status, t2.Body)
	}
	if n := e.DB.Client.IdempotencyKey.Query().Where(idempotencykey.Key("tok")).CountX(systemCtx()); n != 0 {
		t.Errorf("%d rows stored for the OAuth endpoint", n)
	}
}

// TestIdempotencyOneKeyConcurrently: 10 requests with one key at once,
// through two server processes: one publication; every answer is it
// (once first-hand, otherwise replayed) or 409 idempotency_key_in_use.
func TestIdempotencyOneKeyConcurrently(t *testing.T) {
	e := resttest.New(t)
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	staticCampaign(t, e, "rush", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10")
	body, _ := json.Marshal(map[string]any{"campaign": map[string]any{"name": "rush"}, "customer": map[string]any{"source_id": "alice"}})
	h := keyed(resttest.App(e.Project), "rush-1")
	resps := make([]resttest.Response, 10)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range resps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resps[i] = e.DoAt(servers[i%2], http.MethodPost, "/v1/publications", body, h)
		}()
	}
	close(start)
	wg.Wait()
	var firstHand []byte
	acted, replays, inUse := 0, 0, 0
	for _, r := range resps {
		switch {
		case r.Status == http.StatusOK && !replayed(r):
			acted++
			firstHand = r.Body
		case r.Status == http.StatusOK:
			replays++
		case r.Status == http.StatusConflict && r.JSON(t)["key"] == "idempotency_key_in_use":
			inUse++
		default:
			t.Fatalf("unexpected %d %s", r.Status, r.Body)
		}
	}
	if acted != 1 {
		t.Fatalf("%d requests acted (%d replays, %d in use)", acted, replays, inUse)
	}
	for _, r := range resps {
		if r.Status == http.StatusOK && !bytes.Equal(r.Body, firstHand) {
			t.Errorf("a replay differs:\n%s\n%s", r.Body, firstHand)
		}
	}
	if n := publicationCount(t, e); n != 1 {
		t.Fatalf("%d publications, want 1", n)
	}
	t.Logf("1 acted, %d replayed, %d in use", replays, inUse)
}

// TestIdempotencyLeaseAndExpiry: a request finding its key in progress
// waits; a lapsed lease (a dead process) is taken over, a live one ends in
// 409; an expired key is free again, and expired keys are swept.
func TestIdempotencyLeaseAndExpiry(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "lease", "E1", "E2", "E3", "E4")
	body := map[string]any{"campaign": map[string]any{"name": "lease"}, "customer": map[string]any{"source_id": "alice"}}
	must(t, e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "k1")), http.StatusOK)
	setRow := func(key string, state idempotencykey.State, lockedUntil, expiresAt time.Time) {
		t.Helper()
		e.DB.Client.IdempotencyKey.Update().Where(idempotencykey.Key(key)).
			SetState(state).SetLockedUntil(lockedUntil.UTC()).SetExpiresAt(expiresAt.UTC()).ExecX(systemCtx())
	}
	day := time.Now().Add(24 * time.Hour)

	// In progress, held by a process that dies: the lease lapses after
	// 300 ms and the waiting request acts.
	setRow("k1", idempotencykey.StateIN_PROGRESS, time.Now().Add(300*time.Millisecond), day)
	r := e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "k1"))
	if r.Status != http.StatusOK || replayed(r) {
		t.Fatalf("after the lease: %d %s", r.Status, r.Body)
	}
	if n := publicationCount(t, e); n != 2 {
		t.Fatalf("%d publications, want 2", n)
	}
	sameAnswer(t, r, e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "k1")))

	// In progress with a live lease: 409 after waiting.
	setRow("k1", idempotencykey.StateIN_PROGRESS, time.Now().Add(time.Minute), day)
	started := time.Now()
	busy := e.DoJSON(http.MethodPost, "/v1/publications", body, keyed(app, "k1"))
	wantError(t, busy, http.StatusConflict, "idempotency_key_in_use", "")
	if busy.Header.Get("Retry-After") == "" || time.Since(started) < 4*time.Second {
		t.Errorf("409 after %s, Retry-After %q", time.Since(started), busy.Header.Get("Retry-After"))
	}

	// Expired: the key is free, even for another body; other expired
	// keys are swept meanwhile.
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "x"}, keyed(app, "old-1")), http.StatusOK)
	must(t, e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": "y"}, keyed(app, "old-2")), http.StatusOK)
	past := time.Now().Add(-time.Minute)
	setRow("k1", idempotencykey.StateDONE, past, past)
	setRow("old-1", idempotencykey.StateDONE, past, past)
	setRow("old-2", idempotencykey.StateDONE, past, past)
	other := map[string]any{"campaign": map[string]any{"name": "lease"}, "customer": map[string]any{"source_id": "bob"}}
	if r := e.DoJSON(http.MethodPost, "/v1/publications", other, keyed(app, "k1")); r.Status != http.StatusOK || replayed(r) {
		t.Fatalf("expired key: %d %s", r.Status, r.Body)
	}
	if n := e.DB.Client.IdempotencyKey.Query().Where(idempotencykey.KeyIn("old-1", "old-2")).CountX(systemCtx()); n != 0 {
		t.Errorf("%d expired keys left", n)
	}
}

// TestIdempotencyClientAPI: POST /client/v1/redeem with a key redeems once.
func TestIdempotencyClientAPI(t *testing.T) {
	e := resttest.New(t)
	app, mk := resttest.App(e.Project), e.NewManagementKey()
	discountCode(t, e, app, "Web", "WEB-1", map[string]any{"type": "AMOUNT", "amount_off": 500}, nil)
	clientSettings(t, e, mk, map[string]any{"client_trusted_domains": []string{shopOrigin}, "client_redeem_enabled": true})
	cl := keyed(resttest.Client(e.Project, shopOrigin), "cart-42")
	redeem := map[string]any{"customer": map[string]any{"source_id": "alice"}, "order": map[string]any{"amount": 2000}}
	first := e.DoJSON(http.MethodPost, "/client/v1/redeem?code=WEB-1", redeem, cl)
	if first.Status != http.StatusOK || first.JSON(t)["result"] != "SUCCESS" {
		t.Fatalf("%d %s", first.Status, first.Body)
	}
	sameAnswer(t, first, e.DoJSON(http.MethodPost, "/client/v1/redeem?code=WEB-1", redeem, cl))
	if n := e.DB.Client.Redemption.Query().Where(redemption.ResultEQ(redemption.ResultSUCCESS)).CountX(systemCtx()); n != 1 {
		t.Fatalf("%d redemptions, want 1", n)
	}
	// The server-side key's "cart-42" is another key.
	r := e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{"redeemables": []any{map[string]any{"object": "voucher", "id": "WEB-1"}},
		"order": map[string]any{"amount": 2000}}, keyed(app, "cart-42"))
	if replayed(r) || r.Status == http.StatusUnprocessableEntity {
		t.Fatalf("server key with the client key's key: %d %s", r.Status, r.Body)
	}
}

// TestIdempotencyGraphQL: a mutation posted with a key runs once; key
// errors come in the GraphQL error shape.
func TestIdempotencyGraphQL(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	staticCampaign(t, e, "gql", "G1", "G2")
	body, _ := json.Marshal(map[string]any{"query": `mutation { publish(input: {campaign: {name: "gql"}, customer: {sourceID: "lea"}}) { id voucherCodes } }`})
	first := e.Do(http.MethodPost, "/graphql", body, keyed(app, "gql-1"))
	if first.Status != http.StatusOK || bytes.Contains(first.Body, []byte(`"errors"`)) {
		t.Fatalf("%d %s", first.Status, first.Body)
	}
	sameAnswer(t, first, e.Do(http.MethodPost, "/graphql", body, keyed(app, "gql-1")))
	if n := e.DB.Client.Publication.Query().Where(publication.HasCustomer()).CountX(systemCtx()); n != 1 {
		t.Fatalf("%d publications, want 1", n)
	}
	r := e.Do(http.MethodPost, "/graphql", []byte(`{"query":"{ __typename }"}`), keyed(app, "gql-1"))
	var gql resttest.GraphQLResponse
	if err := json.Unmarshal(r.Body, &gql); err != nil || r.Status != http.StatusUnprocessableEntity ||
		len(gql.Errors) != 1 || gql.Errors[0].Extensions["key"] != "idempotency_key_reused" {
		t.Fatalf("another query under the key: %d %s", r.Status, r.Body)
	}
	r = e.Do(http.MethodPost, "/graphql", body, keyed(app, strings.Repeat("x", 300)))
	if err := json.Unmarshal(r.Body, &gql); err != nil || r.Status != http.StatusBadRequest ||
		len(gql.Errors) != 1 || gql.Errors[0].Extensions["key"] != "invalid_idempotency_key" {
		t.Fatalf("a long key on GraphQL: %d %s", r.Status, r.Body)
	}
}

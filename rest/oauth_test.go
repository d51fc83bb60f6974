package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	accesspkg "github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/resttest"
)

func tokenForm(grant, scope string) url.Values {
	v := url.Values{}
	if grant != "" {
		v.Set("grant_type", grant)
	}
	if scope != "" {
		v.Set("scope", scope)
	}
	return v
}

func TestOAuthTokenIsIssuedAndIntrospected(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	before := time.Now().Unix()
	resp := e.Form("/v1/oauth/token", tokenForm("client_credentials", "campaigns  vouchers campaigns"), app)
	if resp.Status != http.StatusOK {
		t.Fatalf("token: %d %s", resp.Status, resp.Body)
	}
	got := resp.JSON(t)
	access, _ := got["access_token"].(string)
	if !regexp.MustCompile(`^[0-9A-Za-z]{50}$`).MatchString(access) || got["client_id"] != e.Project.AppID ||
		got["expires_in"] != float64(900) || got["scope"] != "campaigns vouchers" || got["token_type"] != "Bearer" {
		t.Errorf("token response: %s", resp.Body)
	}
	if _, has := got["active"]; has {
		t.Errorf("token response carries active: %s", resp.Body)
	}
	if exp := int64(got["expires_at"].(float64)); exp < before+899 || exp > time.Now().Unix()+900 {
		t.Errorf("expires_at = %d, issued at %d", exp, before)
	}
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("token response may be cached")
	}
	// Only the hash is stored.
	stored := e.DB.Client.OAuthToken.Query().OnlyX(systemCtx())
	if stored.TokenHash == access || stored.TokenHash != accesspkg.HashToken(access) || stored.ProjectID != e.Project.ProjectID {
		t.Errorf("stored token: %+v", stored)
	}

	in := e.Form("/v1/oauth/introspect", url.Values{"access_token": {access}}, app)
	ij := in.JSON(t)
	if in.Status != http.StatusOK || ij["active"] != true || ij["access_token"] != access || ij["client_id"] != e.Project.AppID ||
		ij["scope"] != "campaigns vouchers" || ij["token_type"] != "Bearer" || ij["expires_at"] != got["expires_at"] {
		t.Errorf("introspect: %d %s", in.Status, in.Body)
	}
	if left := ij["expires_in"].(float64); left < 890 || left > 900 {
		t.Errorf("introspect expires_in = %v", left)
	}

	// A key of the same project introspects it too; another project's key
	// sees nothing.
	var second accesspkg.AppKeyWithToken
	err := graph.InTx(ent.NewContext(viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID}), e.DB.Client),
		func(ctx context.Context) error {
			var err error
			second, err = accesspkg.CreateAppKey(ctx, accesspkg.AppKeyInput{})
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	same := e.Form("/v1/oauth/introspect", url.Values{"access_token": {access}}, resttest.Headers{"X-App-Id": second.Key.ID, "X-App-Token": second.Token})
	if same.JSON(t)["active"] != true {
		t.Errorf("introspect with another key of the project: %s", same.Body)
	}
	other := resttest.App(e.NewProject("other"))
	for name, tok := range map[string]string{"other project's token": access, "unknown token": "nope"} {
		h := other
		if tok == "nope" {
			h = app
		}
		r := e.Form("/v1/oauth/introspect", url.Values{"access_token": {tok}}, h)
		if r.Status != http.StatusOK || string(r.Body) != `{"active":false}` {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
}

func TestOAuthTokenRequestErrors(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	cases := []struct {
		name        string
		form        url.Values
		key, msg    string
		detailsPart string
	}{
		{"wrong grant", tokenForm("password", "api"), "invalid_grant_type", "Invalid grant_type", "client_credentials"},
		{"missing grant", tokenForm("", "api"), "missing_parameters", "Missing parameters", "grant_type"},
		{"missing scope", tokenForm("client_credentials", ""), "missing_parameters", "Missing parameters", "scope"},
		{"blank scope", url.Values{"grant_type": {"client_credentials"}, "scope": {"  "}}, "missing_parameters", "Missing parameters", "scope"},
		{"commas", tokenForm("client_credentials", "vouchers,campaigns"), "invalid_scope", "Invalid scope: vouchers,campaigns", "vouchers,campaigns"},
		{"unknown", tokenForm("client_credentials", "api admin"), "invalid_scope", "Invalid scope: api admin", `"admin"`},
		{"repeated parameter", url.Values{"grant_type": {"client_credentials"}, "scope": {"api", "vouchers"}}, "invalid_payload", "Invalid payload", "scope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.Form("/v1/oauth/token", tc.form, app)
			got := resp.JSON(t)
			if resp.Status != 400 || got["code"] != float64(400) || got["key"] != tc.key || got["message"] != tc.msg ||
				!regexp.MustCompile(regexp.QuoteMeta(tc.detailsPart)).MatchString(got["details"].(string)) {
				t.Errorf("%d %s", resp.Status, resp.Body)
			}
		})
	}
	if resp := e.Form("/v1/oauth/introspect", url.Values{}, app); resp.Status != 400 || resp.JSON(t)["key"] != "missing_parameters" {
		t.Errorf("introspect without access_token: %d %s", resp.Status, resp.Body)
	}
	// JSON is accepted too (leniency for hand-written clients).
	resp := e.DoJSON(http.MethodPost, "/v1/oauth/token", map[string]any{"grant_type": "client_credentials", "scope": "api"}, app)
	if resp.Status != http.StatusOK {
		t.Errorf("JSON token request: %d %s", resp.Status, resp.Body)
	}
	if n := e.DB.Client.OAuthToken.Query().CountX(systemCtx()); n != 1 {
		t.Errorf("%d tokens stored, want 1", n)
	}
}

func TestBearerTokenScopes(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	createCampaign(t, e, map[string]any{"name": "Scoped"})
	api := e.Token(app, "api")
	campaigns := e.Token(app, "campaigns")
	vouchers := e.Token(app, "vouchers publications")

	for name, tc := range map[string]struct {
		token  string
		status int
	}{"api": {api, 200}, "campaigns": {campaigns, 200}, "vouchers": {vouchers, 403}} {
		resp := e.Do(http.MethodGet, "/v1/campaigns/Scoped", nil, resttest.Bearer(tc.token))
		if resp.Status != tc.status {
			t.Errorf("GET campaign with %s token: %d %s", name, resp.Status, resp.Body)
		}
		if tc.status == 403 && resp.JSON(t)["key"] != "forbidden" {
			t.Errorf("scope refusal: %s", resp.Body)
		}
	}
	resp := e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "By token"}, resttest.Bearer(campaigns))
	if resp.Status != http.StatusOK {
		t.Errorf("create campaign with campaigns token: %d %s", resp.Status, resp.Body)
	}

	// GraphQL needs "api".
	q := `{ campaigns { totalCount } }`
	if g := e.GraphQL(resttest.Bearer(api), q, nil); g.Status != 200 || g.Data["campaigns"].(map[string]any)["totalCount"] != float64(2) {
		t.Errorf("GraphQL with api token: %+v", g)
	}
	g := e.GraphQL(resttest.Bearer(campaigns), q, nil)
	if g.Status != 403 || len(g.Errors) != 1 || g.Errors[0].Extensions["key"] != "forbidden" {
		t.Errorf("GraphQL with campaigns token: %+v", g)
	}

	// A token is not an application key: it cannot mint tokens or introspect.
	if r := e.Form("/v1/oauth/token", tokenForm("client_credentials", "api"), resttest.Bearer(api)); r.Status != 401 {
		t.Errorf("token request with a bearer token: %d %s", r.Status, r.Body)
	}
	// Bearer and keys of the same project are fine; of different projects not.
	if r := e.Do(http.MethodGet, "/v1/campaigns/Scoped", nil, resttest.Merge(app, resttest.Bearer(api))); r.Status != 200 {
		t.Errorf("bearer + own keys: %d %s", r.Status, r.Body)
	}
	other := resttest.App(e.NewProject("other"))
	if r := e.Do(http.MethodGet, "/v1/campaigns/Scoped", nil, resttest.Merge(other, resttest.Bearer(api))); r.Status != 401 {
		t.Errorf("bearer + other project's keys: %d %s", r.Status, r.Body)
	}
}

func TestTokenRevocationAndExpiry(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	tok := e.Token(app, "api")
	if r := e.Form("/v1/oauth/token/revoke", url.Values{"access_token": {tok}}, app); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := e.Form("/v1/oauth/token/revoke", url.Values{"access_token": {tok}}, app); r.Status != http.StatusNotFound {
		t.Errorf("revoke again: %d %s", r.Status, r.Body)
	}
	if r := e.Form("/v1/oauth/introspect", url.Values{"access_token": {tok}}, app); string(r.Body) != `{"active":false}` {
		t.Errorf("introspect revoked: %s", r.Body)
	}
	if r := e.Do(http.MethodGet, "/v1/campaigns/x", nil, resttest.Bearer(tok)); r.Status != 401 {
		t.Errorf("revoked token used: %d", r.Status)
	}

	expired := e.Token(app, "api")
	expireAllTokens(t, e)
	if r := e.Form("/v1/oauth/introspect", url.Values{"access_token": {expired}}, app); string(r.Body) != `{"active":false}` {
		t.Errorf("introspect expired: %s", r.Body)
	}
	if r := e.Do(http.MethodGet, "/v1/campaigns/x", nil, resttest.Bearer(expired)); r.Status != 401 || r.JSON(t)["key"] != "unauthorized" {
		t.Errorf("expired token used: %d %s", r.Status, r.Body)
	}
}

// expireAllTokens moves every token's expiry into the past (expires_at is
// immutable through ent, as it should be).
func expireAllTokens(t *testing.T, e *resttest.Env) {
	t.Helper()
	if _, err := e.DB.SQL.Exec(`UPDATE oauth_tokens SET expires_at = created_at`); err != nil {
		t.Fatal(err)
	}
}

// fillTokens stores n tokens of the project directly, expiring at exp.
func fillTokens(t *testing.T, e *resttest.Env, n int, exp time.Time) {
	t.Helper()
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID})
	for start := 0; start < n; start += 500 {
		var builders []*ent.OAuthTokenCreate
		for i := start; i < min(n, start+500); i++ {
			builders = append(builders, e.DB.Client.OAuthToken.Create().SetTokenHash(accesspkg.HashToken(pulid.Hex(16))).
				SetAppKeyID(e.Project.AppID).SetScopes([]string{"api"}).SetExpiresAt(exp))
		}
		e.DB.Client.OAuthToken.CreateBulk(builders...).ExecX(ctx)
	}
}

func TestTokenLimitHoldsUnderConcurrentRequests(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	fillTokens(t, e, accesspkg.MaxOAuthTokensPerProject-1, time.Now().Add(10*time.Minute))

	const parallel = 10
	statuses := make([]int, parallel)
	var retryAfter []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range parallel {
		wg.Go(func() {
			<-start
			r := e.Form("/v1/oauth/token", tokenForm("client_credentials", "api"), app)
			statuses[i] = r.Status
			if r.Status == http.StatusTooManyRequests {
				got := r.JSON(t)
				mu.Lock()
				defer mu.Unlock()
				retryAfter = append(retryAfter, r.Header.Get("Retry-After"))
				if got["key"] != "too_many_oauth_tokens" || got["code"] != float64(429) {
					t.Errorf("limit error: %s", r.Body)
				}
			}
		})
	}
	close(start)
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
		default:
			t.Errorf("unexpected status %d", s)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d requests got a token at the limit (statuses %v), want exactly 1", ok, parallel, statuses)
	}
	for _, ra := range retryAfter {
		if n, err := strconv.Atoi(ra); err != nil || n < 1 || n > 900 {
			t.Errorf("Retry-After = %q", ra)
		}
	}
	if n := e.DB.Client.OAuthToken.Query().CountX(systemCtx()); n != accesspkg.MaxOAuthTokensPerProject {
		t.Errorf("%d tokens stored, want %d", n, accesspkg.MaxOAuthTokensPerProject)
	}
	// The limit is per project.
	e.Token(resttest.App(e.NewProject("other")), "api")
}

func TestExpiredTokensDoNotCountTowardsTheLimit(t *testing.T) {
	e := resttest.New(t)
	fillTokens(t, e, accesspkg.MaxOAuthTokensPerProject, time.Now().Add(-time.Second))
	e.Token(resttest.App(e.Project), "api")
	if n := e.DB.Client.OAuthToken.Query().CountX(systemCtx()); n != 1 {
		t.Errorf("%d tokens stored after issuing past expired ones, want 1 (expired ones are purged)", n)
	}
}

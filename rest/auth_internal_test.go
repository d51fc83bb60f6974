package rest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
)

func TestScopeTable(t *testing.T) {
	cases := []struct {
		method, route string
		want          []string
	}{
		{"POST", "/v1/publications", []string{"api", "publications"}},
		{"GET", "/v1/publications", []string{"api", "publications"}},
		{"GET", "/v1/vouchers/:code/publications", []string{"api", "publications", "vouchers"}},
		{"GET", "/client/v1/validate", []string{"client_api", "client_validate"}},
		{"POST", "/client/v1/redeem", []string{"client_api", "client_redeem"}},
		{"GET", "/v1/campaigns/:campaignId", []string{"api", "campaigns"}},
		{"POST", "/v1/campaigns/:campaignId/vouchers", []string{"api", "campaigns"}},
		{"POST", "/v1/vouchers/:code/transactions/export", []string{"api", "exports"}},
		{"GET", "/v1/vouchers/:code", []string{"api", "vouchers"}},
		{"POST", "/v1/events", []string{"api", "events"}},
		{"GET", "/v1/segments", []string{"api", "segments"}},
		{"GET", "/v2/loyalties/rewards/:id/activities", []string{"api", "loyalties"}},
		{"POST", "/graphql", []string{"api"}},
		{"GET", "/v1/campaignsX", []string{"api"}},
		{"GET", "/v1/customers/:customerId", []string{"api", "customers"}},
		{"GET", "/v1/async-actions/:id", []string{"api", "async-actions"}},
		{"GET", "/v1/orders", []string{"api", "orders"}},
		{"POST", "/v1/orders/export", []string{"api", "orders", "exports"}},
		{"GET", "/v1/product-collections/:collectionId/products", []string{"api", "product-collections", "products"}},
		{"POST", "/v1/metadata-schemas", []string{"api", "metadata-schemas"}},
		{"GET", "/v1/metadata-schemas/:resource", []string{"api", "metadata-schemas"}},
		{"POST", "/v1/segments", []string{"api", "segments"}},
		{"GET", "/v1/exports/:id", []string{"api", "exports"}},
		{"DELETE", "/v1/trash-bin/:binEntryId", []string{"api", "trash-bin"}},
		{"POST", "/v1/vouchers/:code/balance", []string{"api", "vouchers"}},
		{"POST", "/v1/vouchers/:code/validate", []string{"api", "validations"}},
		{"POST", "/v1/vouchers/:code/redemption", []string{"api", "redemptions"}},
		{"DELETE", "/v1/vouchers/:code/sessions/:key", []string{"api", "vouchers"}},
		{"POST", "/v1/validations", []string{"api", "validations"}},
		{"POST", "/v1/redemptions/:id/rollbacks", []string{"api", "redemptions"}},
		{"PUT", "/v1/validation-rules/:id", []string{"api", "validation-rules"}},
	}
	for _, tc := range cases {
		if got := scopesFor(tc.method, tc.route); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.method, tc.route, got, tc.want)
		}
	}
	for _, rs := range scopeTable {
		for _, s := range rs.Scopes {
			if !access.IsScopeValue(s) {
				t.Errorf("scope table names unknown scope %q", s)
			}
		}
	}
}

// TestEveryBearerRouteIsInTheScopeTable keeps the table honest: a route
// that accepts OAuth tokens must be named by a row (not the fallback).
func TestEveryBearerRouteIsInTheScopeTable(t *testing.T) {
	r, err := NewRouter(Options{Ready: func(context.Context) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	for _, ri := range r.Routes() {
		if strings.HasPrefix(ri.Path, "/v1/oauth") || strings.HasPrefix(ri.Path, "/v1/assets") || ri.Path == "/v1/exports/:id/download" ||
			(!strings.HasPrefix(ri.Path, "/v1/") && !strings.HasPrefix(ri.Path, "/v2/") && ri.Path != "/graphql") {
			continue // not bearer routes
		}
		named := slices.ContainsFunc(scopeTable, func(rs routeScope) bool {
			return (rs.Method == "" || rs.Method == ri.Method) && routeHasPrefix(ri.Path, rs.Path)
		})
		if !named {
			t.Errorf("%s %s accepts bearer tokens but has no scope table row", ri.Method, ri.Path)
		}
	}
}

// TestBearerAndAppKeysMiddleware exercises the /v2 rule (token and keys
// of the same project, both required) on a route of its own.
func TestBearerAndAppKeysMiddleware(t *testing.T) {
	db := entdbtest.Open(t)
	base := entdb.WithDialect(ent.NewContext(context.Background(), db.Client), db.Dialect)
	var a, b access.ProjectCredentials
	err := graph.InTx(base, func(ctx context.Context) error {
		var err error
		if a, err = access.CreateProject(ctx, "A", "", ""); err != nil {
			return err
		}
		b, err = access.CreateProject(ctx, "B", "", "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	issue := func(p access.ProjectCredentials, scope string) string {
		var tok access.IssuedOAuthToken
		ctx := viewer.NewContext(base, viewer.Viewer{ProjectID: p.ProjectID, AppID: p.AppID})
		if err := graph.InTx(ctx, func(ctx context.Context) error {
			var err error
			tok, err = access.IssueOAuthToken(ctx, "client_credentials", scope)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return tok.AccessToken
	}
	loyalties, vouchers, bTok := issue(a, "loyalties"), issue(a, "vouchers"), issue(b, "api")

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(withRequest(serverScope{Client: db.Client, Dialect: db.Dialect}, slog.New(slog.NewTextHandler(io.Discard, nil)), 0))
	r.GET("/v2/loyalties/ping", authenticate(bearerAndAppKeys, renderError), func(c *gin.Context) {
		v, _ := viewer.FromContext(c.Request.Context())
		c.String(http.StatusOK, v.ProjectID)
	})
	keys := func(p access.ProjectCredentials) map[string]string {
		return map[string]string{"X-App-Id": p.AppID, "X-App-Token": p.AppToken}
	}
	with := func(m map[string]string, tok string) map[string]string {
		out := map[string]string{"Authorization": "Bearer " + tok}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	cases := map[string]struct {
		h      map[string]string
		status int
	}{
		"keys only":            {keys(a), 401},
		"bearer only":          {with(nil, loyalties), 401},
		"both":                 {with(keys(a), loyalties), 200},
		"token of B, keys A":   {with(keys(a), bTok), 401},
		"wrong scope":          {with(keys(a), vouchers), 403},
		"wrong app token":      {with(map[string]string{"X-App-Id": a.AppID, "X-App-Token": "x"}, loyalties), 401},
		"unknown bearer, keys": {with(keys(a), "nope"), 401},
	}
	for name, tc := range cases {
		req := httptest.NewRequest(http.MethodGet, "/v2/loyalties/ping", nil)
		for k, v := range tc.h {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code != tc.status {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
		if tc.status == 200 && w.Body.String() != a.ProjectID {
			t.Errorf("%s: viewer project %s", name, w.Body)
		}
	}
}

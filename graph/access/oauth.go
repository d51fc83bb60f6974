package access

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/oauthtoken"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// OAuth 2.0 limits of the interface.
const (
	// OAuthTokenLifetime is how long an access token lives.
	OAuthTokenLifetime = 900 * time.Second
	// MaxOAuthTokensPerProject is how many unexpired tokens a project may hold.
	MaxOAuthTokensPerProject = 1000
	// accessTokenLength is the number of random alphanumeric characters of
	// an access token (≈ 297 bits).
	accessTokenLength = 50
)

// Scope values of the interface. ScopeAPI allows the whole server API.
const (
	ScopeAPI = "api"
)

// scopeValues are all scope values a token may be issued with.
var scopeValues = []string{
	"api", "assets", "async-actions", "campaigns", "categories", "client_api", "client_consents",
	"client_customers", "client_events", "client_promotions", "client_publish", "client_qualifications",
	"client_redeem", "client_redemptions", "client_validate", "client_validations", "client_vouchers",
	"consents", "customers", "events", "exports", "locations", "loyalties", "metadata-schemas", "orders",
	"product-collections", "products", "promotions", "publications", "qualifications", "redemptions",
	"referrals", "rewards", "segments", "skus", "task-results", "templates", "trash-bin",
	"validation-rules-assignments", "validation-rules", "validations", "vouchers",
}

// IsScopeValue reports whether s is one of the interface's scope values.
func IsScopeValue(s string) bool { return slices.Contains(scopeValues, s) }

// parseScope splits a space-delimited scope parameter. Empty is a missing
// parameter (the real service requires scope); an unknown value — which
// includes comma-separated lists — is invalid_scope, echoing the raw value
// in the message as the real service does.
func parseScope(raw string) ([]string, error) {
	fields := strings.Fields(raw)
	if len(fields) == 0 {
		return nil, apperr.MissingParameters("Parameter scope is required: space-delimited scope values, e.g. \"api\"")
	}
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if !IsScopeValue(f) {
			return nil, &apperr.Error{
				Code: http.StatusBadRequest, Key: "invalid_scope", Message: "Invalid scope: " + raw,
				Details: fmt.Sprintf("Unknown scope value %q; separate scope values with spaces", f),
			}
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// IssuedOAuthToken is a new access token (shown once) and its stored record.
type IssuedOAuthToken struct {
	AccessToken string
	Token       *ent.OAuthToken
}

// IssueOAuthToken runs the client credentials grant for the application key
// of the viewer in ctx. Run it inside InTx: it locks the project so the
// per-project limit holds under concurrent requests on every server process.
func IssueOAuthToken(ctx context.Context, grantType, scope string) (IssuedOAuthToken, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return IssuedOAuthToken{}, err
	}
	v, ok := viewer.FromContext(ctx)
	if !ok || v.AppID == "" || v.TokenID != "" {
		return IssuedOAuthToken{}, apperr.Unauthorized()
	}
	switch grantType {
	case "client_credentials":
	case "":
		return IssuedOAuthToken{}, apperr.MissingParameters("Parameter grant_type is required (client_credentials)")
	default:
		return IssuedOAuthToken{}, &apperr.Error{Code: http.StatusBadRequest, Key: "invalid_grant_type",
			Message: "Invalid grant_type", Details: "The only supported grant_type is client_credentials"}
	}
	scopes, err := parseScope(scope)
	if err != nil {
		return IssuedOAuthToken{}, err
	}
	if err := store.LockProject(ctx, c, v.ProjectID); err != nil {
		return IssuedOAuthToken{}, err
	}
	// Under the lock, the key must still be active: a block or delete that
	// committed since the request authenticated wins.
	active, err := c.AppKey.Query().Where(appkey.ID(v.AppID), appkey.StatusEQ(appkey.StatusACTIVE)).Exist(ctx)
	if err != nil {
		return IssuedOAuthToken{}, fmt.Errorf("checking application key: %w", err)
	}
	if !active {
		return IssuedOAuthToken{}, apperr.Unauthorized()
	}
	now := time.Now().UTC()
	// Expired tokens are dead weight: drop them while the project is locked.
	if _, err := c.OAuthToken.Delete().Where(oauthtoken.ExpiresAtLTE(now)).Exec(ctx); err != nil {
		return IssuedOAuthToken{}, fmt.Errorf("deleting expired OAuth tokens: %w", err)
	}
	live, err := c.OAuthToken.Query().Where(oauthtoken.ExpiresAtGT(now)).Count(ctx)
	if err != nil {
		return IssuedOAuthToken{}, fmt.Errorf("counting OAuth tokens: %w", err)
	}
	if live >= MaxOAuthTokensPerProject {
		return IssuedOAuthToken{}, tooManyTokens(ctx, c, now)
	}
	access := pulid.New("", accessTokenLength)
	t, err := c.OAuthToken.Create().
		SetTokenHash(HashToken(access)).
		SetAppKeyID(v.AppID).
		SetScopes(scopes).
		SetExpiresAt(now.Truncate(time.Second).Add(OAuthTokenLifetime)).
		Save(ctx)
	if err != nil {
		return IssuedOAuthToken{}, fmt.Errorf("storing OAuth token: %w", err)
	}
	return IssuedOAuthToken{AccessToken: access, Token: t}, nil
}

// tooManyTokens is the 429 of a project at its token limit; Retry-After is
// when its oldest token expires.
func tooManyTokens(ctx context.Context, c *ent.Client, now time.Time) error {
	retry := int(OAuthTokenLifetime / time.Second)
	oldest, err := c.OAuthToken.Query().Where(oauthtoken.ExpiresAtGT(now)).
		Order(ent.Asc(oauthtoken.FieldExpiresAt)).First(ctx)
	if err == nil {
		retry = max(1, int(oldest.ExpiresAt.Sub(now).Seconds())+1)
	}
	return &apperr.Error{
		Code: http.StatusTooManyRequests, Key: "too_many_oauth_tokens", Message: "Too many OAuth tokens",
		Details: fmt.Sprintf("A project can hold at most %d unexpired OAuth tokens; try again when one expires",
			MaxOAuthTokensPerProject),
		RetryAfter: retry,
	}
}

// IntrospectOAuthToken returns the live token with the given access token
// in the viewer's project, or nil when it is unknown, expired, revoked,
// issued by a blocked or deleted key, or another project's.
func IntrospectOAuthToken(ctx context.Context, accessToken string) (*ent.OAuthToken, error) {
	if accessToken == "" {
		return nil, apperr.MissingParameters("Parameter access_token is required")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := liveToken(ctx, c, accessToken)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return t, err
}

// RevokeOAuthToken deletes a token of the viewer's project; a token that
// is unknown or no longer live is a 404.
func RevokeOAuthToken(ctx context.Context, accessToken string) error {
	if accessToken == "" {
		return apperr.MissingParameters("Parameter access_token is required")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	t, err := liveToken(ctx, c, accessToken)
	if ent.IsNotFound(err) {
		return apperr.New(http.StatusNotFound, "not_found", "Resource not found", "The token is unknown or inactive")
	}
	if err != nil {
		return err
	}
	if err := c.OAuthToken.DeleteOneID(t.ID).Exec(ctx); err != nil {
		return fmt.Errorf("revoking OAuth token: %w", err)
	}
	return nil
}

// liveToken finds an unexpired token whose key exists and is active, with
// the key loaded. ctx decides the projects searched (a viewer: its own).
func liveToken(ctx context.Context, c *ent.Client, accessToken string) (*ent.OAuthToken, error) {
	t, err := c.OAuthToken.Query().
		Where(
			oauthtoken.TokenHash(HashToken(accessToken)),
			oauthtoken.ExpiresAtGT(time.Now().UTC()),
			oauthtoken.HasAppKeyWith(appkey.StatusEQ(appkey.StatusACTIVE)),
		).
		WithAppKey().
		Only(ctx)
	if err != nil {
		if ent.IsNotFound(err) {
			return nil, err
		}
		return nil, fmt.Errorf("looking up OAuth token: %w", err)
	}
	return t, nil
}

// AuthenticateBearer checks an OAuth access token used from clientIP and
// returns the viewer it proves: its project, its key and its scopes. It
// runs on every request without a cache, so blocking or deleting the key
// (or revoking the token) takes effect at once on every server process.
func AuthenticateBearer(ctx context.Context, c *ent.Client, accessToken, clientIP string) (viewer.Viewer, error) {
	if accessToken == "" {
		return viewer.Viewer{}, apperr.Unauthorized()
	}
	// The token names its project: look it up across projects, narrowly.
	t, err := liveToken(viewer.NewSystemContext(ctx), c, accessToken)
	switch {
	case ent.IsNotFound(err):
		return viewer.Viewer{}, apperr.Unauthorized()
	case err != nil:
		return viewer.Viewer{}, err
	case t.Edges.AppKey.ProjectID != t.ProjectID:
		return viewer.Viewer{}, apperr.Unauthorized()
	case !ipAllowed(t.Edges.AppKey.AllowedIps, clientIP):
		return viewer.Viewer{}, ipNotAllowed()
	}
	return viewer.Viewer{ProjectID: t.ProjectID, AppID: t.AppKeyID, TokenID: t.ID, Scopes: t.Scopes}, nil
}

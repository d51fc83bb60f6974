package access

import (
	"context"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// OAuthAccessToken is the interface's OAuth token object, shared by REST
// (/v1/oauth/*) and GraphQL. Active is set only by introspection.
type OAuthAccessToken struct {
	AccessToken string `json:"access_token"`
	ClientID    string `json:"client_id"`
	ExpiresAt   int64  `json:"expires_at"`
	ExpiresIn   int64  `json:"expires_in"`
	Scope       string `json:"scope"`
	TokenType   string `json:"token_type"`
	Active      *bool  `json:"active,omitempty"`
}

func oauthAccessToken(access string, t *ent.OAuthToken, expiresIn int64) *OAuthAccessToken {
	return &OAuthAccessToken{AccessToken: access, ClientID: t.AppKeyID, ExpiresAt: t.ExpiresAt.Unix(), ExpiresIn: expiresIn,
		Scope: strings.Join(t.Scopes, " "), TokenType: "Bearer"}
}

// requireAppKeyViewer refuses OAuth operations made with an OAuth token:
// tokens are issued, introspected and revoked with application keys.
func requireAppKeyViewer(ctx context.Context) error {
	if v, ok := viewer.FromContext(ctx); !ok || v.TokenID != "" || v.Client {
		return apperr.Forbidden("OAuth tokens are issued, introspected and revoked with application keys (X-App-Id, X-App-Token)")
	}
	return nil
}

// IssueOAuthAccessToken runs the client credentials grant for the caller's
// application key (REST POST /v1/oauth/token, GraphQL issueOAuthToken).
func IssueOAuthAccessToken(ctx context.Context, grantType *string, scope string) (*OAuthAccessToken, error) {
	if err := requireAppKeyViewer(ctx); err != nil {
		return nil, err
	}
	grant := "client_credentials"
	if grantType != nil {
		grant = *grantType
	}
	var issued IssuedOAuthToken
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		var err error
		issued, err = IssueOAuthToken(ctx, grant, scope)
		return err
	})
	if err != nil {
		return nil, err
	}
	return oauthAccessToken(issued.AccessToken, issued.Token, int64(OAuthTokenLifetime/time.Second)), nil
}

// IntrospectOAuthAccessToken describes a live token of the caller's
// project, or only {active: false} for anything else (RFC 7662 §2.2).
func IntrospectOAuthAccessToken(ctx context.Context, accessToken string) (*OAuthAccessToken, error) {
	if err := requireAppKeyViewer(ctx); err != nil {
		return nil, err
	}
	t, err := IntrospectOAuthToken(ctx, accessToken)
	if err != nil {
		return nil, err
	}
	inactive := false
	if t == nil {
		return &OAuthAccessToken{Active: &inactive}, nil
	}
	left := int64(time.Until(t.ExpiresAt) / time.Second)
	if left <= 0 {
		return &OAuthAccessToken{Active: &inactive}, nil
	}
	out := oauthAccessToken(accessToken, t, left)
	active := true
	out.Active = &active
	return out, nil
}

// RevokeOAuthAccessToken revokes a live token of the caller's project.
func RevokeOAuthAccessToken(ctx context.Context, accessToken string) (bool, error) {
	if err := requireAppKeyViewer(ctx); err != nil {
		return false, err
	}
	if err := store.WithinTx(ctx, func(ctx context.Context) error { return RevokeOAuthToken(ctx, accessToken) }); err != nil {
		return false, err
	}
	return true, nil
}

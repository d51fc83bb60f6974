package rest

import (
	"context"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
)

// oauthTokenBody is the interface's OAuth token object. Active is set only
// by introspection.
type oauthTokenBody struct {
	AccessToken string `json:"access_token"`
	ClientID    string `json:"client_id"`
	ExpiresAt   int64  `json:"expires_at"`
	ExpiresIn   int64  `json:"expires_in"`
	Scope       string `json:"scope"`
	TokenType   string `json:"token_type"`
	Active      *bool  `json:"active,omitempty"`
}

func oauthTokenJSON(access string, t *ent.OAuthToken, expiresIn int64) oauthTokenBody {
	return oauthTokenBody{
		AccessToken: access, ClientID: t.AppKeyID, ExpiresAt: t.ExpiresAt.Unix(), ExpiresIn: expiresIn,
		Scope: strings.Join(t.Scopes, " "), TokenType: "Bearer",
	}
}

// issueOAuthToken serves POST /v1/oauth/token (client credentials grant).
func issueOAuthToken(c *gin.Context) {
	params, err := formParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	var issued graph.IssuedOAuthToken
	err = graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		issued, err = graph.IssueOAuthToken(ctx, params["grant_type"], params["scope"])
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, oauthTokenJSON(issued.AccessToken, issued.Token, int64(graph.OAuthTokenLifetime/time.Second)))
}

// introspectOAuthToken serves POST /v1/oauth/introspect: a live token of
// the caller's project, or {"active": false} for anything else.
func introspectOAuthToken(c *gin.Context) {
	params, err := formParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	access := params["access_token"]
	t, err := graph.IntrospectOAuthToken(c.Request.Context(), access)
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	left := int64(0)
	if t != nil {
		left = int64(time.Until(t.ExpiresAt) / time.Second)
	}
	if t == nil || left <= 0 {
		c.JSON(http.StatusOK, gin.H{"active": false})
		return
	}
	body := oauthTokenJSON(access, t, left)
	active := true
	body.Active = &active
	c.JSON(http.StatusOK, body)
}

// revokeOAuthToken serves POST /v1/oauth/token/revoke: 204 when a live
// token of the caller's project was revoked, 404 otherwise.
func revokeOAuthToken(c *gin.Context) {
	params, err := formParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	err = graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		return graph.RevokeOAuthToken(ctx, params["access_token"])
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// formParams reads the parameters of an OAuth request: form-encoded as the
// interface says, or — leniently — a JSON object of strings. A parameter
// given twice is refused rather than guessed.
func formParams(c *gin.Context) (map[string]string, error) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes)
	ct, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	out := map[string]string{}
	if ct == "application/json" {
		var raw map[string]any
		if err := decodeBody(c, &raw); err != nil {
			return nil, err
		}
		for k, v := range raw {
			s, ok := v.(string)
			if !ok && v != nil {
				return nil, apperr.InvalidPayload("Parameter %s must be a string", k)
			}
			out[k] = s
		}
		return out, nil
	}
	if err := c.Request.ParseForm(); err != nil {
		return nil, apperr.InvalidPayload("The request body is not a valid form (application/x-www-form-urlencoded)")
	}
	for k, vs := range c.Request.PostForm {
		if len(vs) > 1 {
			return nil, apperr.InvalidPayload("Parameter %s is given more than once", k)
		}
		out[k] = vs[0]
	}
	return out, nil
}

package rest

import (
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
)

// oauthHandlers serve /v1/oauth/* (application keys) through the resolvers
// GraphQL's issueOAuthToken, introspectOAuthToken and revokeOAuthToken use.
type oauthHandlers struct{ root *graph.Resolver }

// issue serves POST /v1/oauth/token (client credentials grant).
func (h oauthHandlers) issue(c *gin.Context) {
	params, err := formParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	grant := params["grant_type"]
	tok, err := h.root.Mutation().IssueOAuthToken(c.Request.Context(), &grant, params["scope"])
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, tok)
}

// introspect serves POST /v1/oauth/introspect: a live token of the
// caller's project, or {"active": false} for anything else.
func (h oauthHandlers) introspect(c *gin.Context) {
	params, err := formParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	tok, err := h.root.Query().IntrospectOAuthToken(c.Request.Context(), params["access_token"])
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	if tok.Active == nil || !*tok.Active {
		c.JSON(http.StatusOK, gin.H{"active": false})
		return
	}
	c.JSON(http.StatusOK, tok)
}

// revoke serves POST /v1/oauth/token/revoke: 204 when a live token of the
// caller's project was revoked, 404 otherwise.
func (h oauthHandlers) revoke(c *gin.Context) {
	params, err := formParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	if _, err := h.root.Mutation().RevokeOAuthToken(c.Request.Context(), params["access_token"]); err != nil {
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

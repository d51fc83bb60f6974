package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
)

// The management area (/management/v1, management keys). Every handler is
// one call of a management graph resolver (the fields /management/graphql
// serves), which checks the project (404), its plan feature (402) and runs
// the use case scoped to that project in one transaction.

// managementHandlers serve /management/v1. origins learns of changes to
// trusted domains at once (Forget).
type managementHandlers struct {
	root    *graph.Resolver
	origins *access.TrustedOrigins
}

// markManagement tells the graph the request carries management keys
// (requireManagementKeys ran before it), so its management fields answer.
func markManagement(c *gin.Context) {
	c.Request = c.Request.WithContext(access.WithManagement(c.Request.Context()))
	c.Next()
}

// answer renders a resolver call's outcome: the error, or status with
// render(out) as the body (no body when render is nil).
func answer[T any](c *gin.Context, status int, out T, err error, render func(T) any) {
	if err != nil {
		renderError(c, err)
		return
	}
	if render == nil {
		c.Status(status)
		return
	}
	c.PureJSON(status, render(out))
}

// listOf renders items as a v1 list of all of them.
func listOf[T, B any](items []T, one func(T) B) any {
	out := make([]B, len(items))
	for i, it := range items {
		out[i] = one(it)
	}
	return newList(out, len(out))
}

// apiKeyBody is an application key as the management API shows it. The
// token appears only in the responses of create and regenerate.
type apiKeyBody struct {
	Object     string     `json:"object"`
	AppID      string     `json:"app_id"`
	AppToken   string     `json:"app_token,omitempty"`
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	AllowedIPs []string   `json:"allowed_ips"`
	ProjectID  string     `json:"project_id"`
	Side       string     `json:"side"`
	CreatedAt  timestamp  `json:"created_at"`
	UpdatedAt  *timestamp `json:"updated_at"`
}

func apiKeyJSON(k *ent.AppKey, token string) apiKeyBody {
	ips := k.AllowedIps
	if ips == nil {
		ips = []string{}
	}
	return apiKeyBody{Object: "api_key", AppID: k.ID, AppToken: token, Name: k.Name, Status: k.Status.String(),
		AllowedIPs: ips, ProjectID: k.ProjectID, Side: k.Side.String(), CreatedAt: timestamp(k.CreatedAt), UpdatedAt: optionalTime(k.UpdatedAt)}
}

func keyJSON(k *ent.AppKey) any { return apiKeyJSON(k, "") }

func keyWithTokenJSON(k *access.AppKeyWithToken) any { return apiKeyJSON(k.Key, k.Token) }

// apiKeyHandlers serve /management/v1/projects/{projectId}/api-keys (server
// side) and …/client-keys (client: true): the application key lifecycle.
// Key ids are unique across both sides, so the per-key routes act on the
// key the id names.
type apiKeyHandlers struct {
	root   *graph.Resolver
	client bool
}

// list serves GET …/api-keys.
func (h apiKeyHandlers) list(c *gin.Context) {
	keys, err := h.root.Query().ManagementAPIKeys(c.Request.Context(), c.Param("projectId"), &h.client)
	answer(c, http.StatusOK, keys, err, func(ks []*ent.AppKey) any { return listOf(ks, keyJSON) })
}

// create serves POST …/api-keys: {name?, allowed_ips?} → the key with its token.
func (h apiKeyHandlers) create(c *gin.Context) {
	var in access.AppKeyInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	k, err := h.root.Mutation().CreateManagementAPIKey(c.Request.Context(), c.Param("projectId"), &h.client, &in)
	c.Header("Cache-Control", "no-store")
	answer(c, http.StatusOK, k, err, keyWithTokenJSON)
}

// update serves PUT …/api-keys/{appId}: {name?, allowed_ips?}.
func (h apiKeyHandlers) update(c *gin.Context) {
	var in access.AppKeyInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	k, err := h.root.Mutation().UpdateManagementAPIKey(c.Request.Context(), c.Param("projectId"), c.Param("appId"), in)
	answer(c, http.StatusOK, k, err, keyJSON)
}

// setStatus serves POST …/api-keys/{appId}/block and …/unblock.
func (h apiKeyHandlers) setStatus(blocked bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		k, err := h.root.Mutation().SetManagementAPIKeyBlocked(c.Request.Context(), c.Param("projectId"), c.Param("appId"), blocked)
		answer(c, http.StatusOK, k, err, keyJSON)
	}
}

// regenerate serves POST …/api-keys/{appId}/regenerate: a new token, same id.
func (h apiKeyHandlers) regenerate(c *gin.Context) {
	k, err := h.root.Mutation().RegenerateManagementAPIKey(c.Request.Context(), c.Param("projectId"), c.Param("appId"))
	c.Header("Cache-Control", "no-store")
	answer(c, http.StatusOK, k, err, keyWithTokenJSON)
}

// delete serves DELETE …/api-keys/{appId}: 204; the key's OAuth tokens go too.
func (h apiKeyHandlers) delete(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementAPIKey(c.Request.Context(), c.Param("projectId"), c.Param("appId"))
	answer[any](c, http.StatusNoContent, nil, err, nil)
}

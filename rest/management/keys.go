package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// apiKeyBody is an application key as the management API shows it. The
// token appears only in the responses of create and regenerate.
type apiKeyBody struct {
	Object     string             `json:"object"`
	AppID      string             `json:"app_id"`
	AppToken   string             `json:"app_token,omitempty"`
	Name       string             `json:"name"`
	Status     string             `json:"status"`
	AllowedIPs []string           `json:"allowed_ips"`
	ProjectID  string             `json:"project_id"`
	Side       string             `json:"side"`
	CreatedAt  httpkit.Timestamp  `json:"created_at"`
	UpdatedAt  *httpkit.Timestamp `json:"updated_at"`
}

func apiKeyJSON(k *ent.AppKey, token string) apiKeyBody {
	ips := k.AllowedIps
	if ips == nil {
		ips = []string{}
	}
	return apiKeyBody{Object: "api_key", AppID: k.ID, AppToken: token, Name: k.Name, Status: k.Status.String(),
		AllowedIPs: ips, ProjectID: k.ProjectID, Side: k.Side.String(), CreatedAt: httpkit.Timestamp(k.CreatedAt), UpdatedAt: httpkit.OptionalTime(k.UpdatedAt)}
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
	httpkit.Answer(c, http.StatusOK, keys, err, func(ks []*ent.AppKey) any { return httpkit.ListOf(ks, keyJSON) })
}

// create serves POST …/api-keys: {name?, allowed_ips?} → the key with its token.
func (h apiKeyHandlers) create(c *gin.Context) {
	var in access.AppKeyInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	k, err := h.root.Mutation().CreateManagementAPIKey(c.Request.Context(), c.Param("projectId"), &h.client, &in)
	c.Header("Cache-Control", "no-store")
	httpkit.Answer(c, http.StatusOK, k, err, keyWithTokenJSON)
}

// update serves PUT …/api-keys/{appId}: {name?, allowed_ips?}.
func (h apiKeyHandlers) update(c *gin.Context) {
	var in access.AppKeyInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	k, err := h.root.Mutation().UpdateManagementAPIKey(c.Request.Context(), c.Param("projectId"), c.Param("appId"), in)
	httpkit.Answer(c, http.StatusOK, k, err, keyJSON)
}

// setStatus serves POST …/api-keys/{appId}/block and …/unblock.
func (h apiKeyHandlers) setStatus(blocked bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		k, err := h.root.Mutation().SetManagementAPIKeyBlocked(c.Request.Context(), c.Param("projectId"), c.Param("appId"), blocked)
		httpkit.Answer(c, http.StatusOK, k, err, keyJSON)
	}
}

// regenerate serves POST …/api-keys/{appId}/regenerate: a new token, same id.
func (h apiKeyHandlers) regenerate(c *gin.Context) {
	k, err := h.root.Mutation().RegenerateManagementAPIKey(c.Request.Context(), c.Param("projectId"), c.Param("appId"))
	c.Header("Cache-Control", "no-store")
	httpkit.Answer(c, http.StatusOK, k, err, keyWithTokenJSON)
}

// delete serves DELETE …/api-keys/{appId}: 204; the key's OAuth tokens go too.
func (h apiKeyHandlers) delete(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementAPIKey(c.Request.Context(), c.Param("projectId"), c.Param("appId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// projectBody is the management API's project object; the settings with
// one fixed answer here (case-sensitive codes, cluster, notifications) are
// in project_settings.go.
type projectBody struct {
	ID                                    string   `json:"id"`
	Name                                  string   `json:"name"`
	Description                           *string  `json:"description"`
	Timezone                              string   `json:"timezone"`
	Currency                              string   `json:"currency"`
	DialCode                              *string  `json:"dial_code"`
	WebhookVersion                        string   `json:"webhook_version"`
	APIVersion                            string   `json:"api_version"`
	ClientTrustedDomains                  []string `json:"client_trusted_domains"`
	ClientRedeemEnabled                   bool     `json:"client_redeem_enabled"`
	ClientPublishEnabled                  bool     `json:"client_publish_enabled"`
	ClientListVouchersEnabled             bool     `json:"client_list_vouchers_enabled"`
	ClientCreateCustomerEnabled           bool     `json:"client_create_customer_enabled"`
	ClientLoyaltyEventsEnabled            bool     `json:"client_loyalty_events_enabled"`
	ClientSetVoucherExpirationDateEnabled bool     `json:"client_set_voucher_expiration_date_enabled"`
	IsSandbox                             bool     `json:"is_sandbox"`
	// WebhookToken signs the project's webhooks (docs/webhooks.md).
	WebhookToken string `json:"webhook_token"`
	projectFixedSettings
}

// sideKey is a key pair in a created project's response.
type sideKey struct {
	AppID    string `json:"app_id"`
	AppToken string `json:"app_token"`
}

// createdProjectBody is POST /management/v1/projects' response: the
// project and its first keys, whose tokens are never shown again.
type createdProjectBody struct {
	projectBody
	ServerSideKey sideKey `json:"server_side_key"`
	ClientSideKey sideKey `json:"client_side_key"`
}

func projectJSON(p *ent.Project) projectBody {
	domains := p.ClientTrustedDomains
	if domains == nil {
		domains = []string{}
	}
	var desc *string
	if p.Description != "" {
		desc = &p.Description
	}
	return projectBody{ID: p.ID, Name: p.Name, Description: desc, Timezone: p.Timezone, Currency: p.Currency,
		WebhookVersion: "v2024-01-01", APIVersion: "v2018-08-01", ClientTrustedDomains: domains,
		ClientRedeemEnabled: p.ClientRedeemEnabled, ClientPublishEnabled: p.ClientPublishEnabled,
		ClientListVouchersEnabled: p.ClientListVouchersEnabled, ClientCreateCustomerEnabled: p.ClientCreateCustomerEnabled,
		ClientLoyaltyEventsEnabled:            p.ClientLoyaltyEventsEnabled,
		ClientSetVoucherExpirationDateEnabled: p.ClientSetVoucherExpirationDateEnabled,
		WebhookToken:                          p.WebhookToken, projectFixedSettings: fixedProjectSettings()}
}

func projectBodyOf(p *ent.Project) any { return projectJSON(p) }

// listProjects serves GET /management/v1/projects (limit, page).
func (h handlers) listProjects(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	list, err := h.root.Query().ManagementProjects(c.Request.Context(), limit, page)
	c.Header("Cache-Control", "no-store") // webhook tokens
	httpkit.Answer(c, http.StatusOK, list, err, func(l *access.ProjectList) any {
		out := make([]projectBody, len(l.Data))
		for i, p := range l.Data {
			out[i] = projectJSON(p)
		}
		return httpkit.NewList(out, l.Total)
	})
}

// createProject serves POST /management/v1/projects: the project with its
// first keys, whose tokens are never shown again.
func (h handlers) createProject(c *gin.Context) {
	var in access.ProjectInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	created, err := h.root.Mutation().CreateManagementProject(c.Request.Context(), in)
	if err == nil {
		h.origins.Forget()
	}
	c.Header("Cache-Control", "no-store")
	httpkit.Answer(c, http.StatusOK, created, err, func(cp *access.CreatedProject) any {
		return createdProjectBody{projectBody: projectJSON(cp.Project),
			ServerSideKey: sideKey{AppID: cp.Keys.AppID, AppToken: cp.Keys.AppToken},
			ClientSideKey: sideKey{AppID: cp.Keys.ClientAppID, AppToken: cp.Keys.ClientAppToken}}
	})
}

// getProject serves GET /management/v1/projects/{projectId}.
func (h handlers) getProject(c *gin.Context) {
	p, err := h.root.Query().ManagementProject(c.Request.Context(), c.Param("projectId"))
	c.Header("Cache-Control", "no-store") // the webhook token
	httpkit.Answer(c, http.StatusOK, p, err, projectBodyOf)
}

// updateProject serves PUT /management/v1/projects/{projectId}: only the
// properties sent change.
func (h handlers) updateProject(c *gin.Context) {
	var in access.ProjectInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	p, err := h.root.Mutation().UpdateManagementProject(c.Request.Context(), c.Param("projectId"), in)
	if err == nil {
		h.origins.Forget()
	}
	c.Header("Cache-Control", "no-store") // the webhook token
	httpkit.Answer(c, http.StatusOK, p, err, projectBodyOf)
}

// deleteProject serves DELETE /management/v1/projects/{projectId}: 204;
// the project and all its data are gone, its keys stop working.
func (h handlers) deleteProject(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementProject(c.Request.Context(), c.Param("projectId"))
	if err == nil {
		h.origins.Forget()
	}
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

// regenerateWebhookToken serves POST
// /management/v1/projects/{projectId}/webhook-token/regenerate: the
// project with a new webhook_token, which signs every delivery from now on.
func (h handlers) regenerateWebhookToken(c *gin.Context) {
	p, err := h.root.Mutation().RegenerateManagementWebhookToken(c.Request.Context(), c.Param("projectId"))
	c.Header("Cache-Control", "no-store")
	httpkit.Answer(c, http.StatusOK, p, err, projectBodyOf)
}

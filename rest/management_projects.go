package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
)

// projectBody is the management API's project object (the properties that
// mean something here; the real service's notification and cluster
// settings do not).
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
		WebhookToken:                          p.WebhookToken}
}

// projectHandlers serve /management/v1/projects. Changes to trusted
// domains reach the CORS preflight directory at once (origins.Forget).
type projectHandlers struct{ origins *graph.TrustedOrigins }

// list serves GET /management/v1/projects (limit, page).
func (projectHandlers) list(c *gin.Context) {
	limit, page, err := limitAndPage(c)
	if err != nil {
		renderError(c, err)
		return
	}
	ps, total, err := graph.ManagedProjects(c.Request.Context(), limit, page)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]projectBody, len(ps))
	for i, p := range ps {
		out[i] = projectJSON(p)
	}
	c.Header("Cache-Control", "no-store") // webhook tokens
	c.JSON(http.StatusOK, newList(out, total))
}

// create serves POST /management/v1/projects.
func (h projectHandlers) create(c *gin.Context) {
	var in graph.ProjectInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	created, err := inTx(c, func(ctx context.Context) (graph.CreatedProject, error) {
		return graph.CreateManagedProject(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	h.origins.Forget()
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, createdProjectBody{projectBody: projectJSON(created.Project),
		ServerSideKey: sideKey{AppID: created.Keys.AppID, AppToken: created.Keys.AppToken},
		ClientSideKey: sideKey{AppID: created.Keys.ClientAppID, AppToken: created.Keys.ClientAppToken}})
}

// get serves GET /management/v1/projects/{projectId}.
func (projectHandlers) get(c *gin.Context) {
	p, err := graph.ManagedProject(c.Request.Context(), c.Param("projectId"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store") // the webhook token
	c.JSON(http.StatusOK, projectJSON(p))
}

// regenerateWebhookToken serves POST
// /management/v1/projects/{projectId}/webhook-token/regenerate: the
// project with a new webhook_token, which signs every delivery from now on.
func (projectHandlers) regenerateWebhookToken(c *gin.Context) {
	p, err := inTx(c, func(ctx context.Context) (*ent.Project, error) {
		return graph.RegenerateWebhookToken(ctx, c.Param("projectId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, projectJSON(p))
}

// update serves PUT /management/v1/projects/{projectId}: only the
// properties sent change.
func (h projectHandlers) update(c *gin.Context) {
	var in graph.ProjectInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	p, err := inTx(c, func(ctx context.Context) (*ent.Project, error) {
		return graph.UpdateProject(ctx, c.Param("projectId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	h.origins.Forget()
	c.Header("Cache-Control", "no-store") // the webhook token
	c.JSON(http.StatusOK, projectJSON(p))
}

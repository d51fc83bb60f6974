package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Webhook configurations, their events and delivery attempts, under
// /management/v1/projects/{projectId}/webhooks (JSON shapes in webhook_json.go).

// registerWebhooks mounts the webhook routes on a project's management group.
func (h handlers) registerWebhooks(mgmt *gin.RouterGroup) {
	mgmt.POST("/webhooks", h.createWebhook)
	mgmt.GET("/webhooks", h.listWebhooks)
	mgmt.GET("/webhooks/:webhookId", h.getWebhook)
	mgmt.PUT("/webhooks/:webhookId", h.updateWebhook)
	mgmt.DELETE("/webhooks/:webhookId", h.deleteWebhook)
	mgmt.GET("/webhooks/:webhookId/events", h.listWebhookEvents)
	mgmt.GET("/webhooks/:webhookId/events/:eventId", h.getWebhookEvent)
	mgmt.POST("/webhooks/:webhookId/events/:eventId/redeliver", h.redeliverWebhookEvent)
	mgmt.GET("/webhooks/:webhookId/deliveries", h.listWebhookDeliveries)
}

func webhookAny(w *ent.Webhook) any { return webhookJSON(w) }

// createWebhook serves POST …/webhooks: {target_url, events, active?}.
func (h handlers) createWebhook(c *gin.Context) {
	var in webhook.WebhookInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	w, err := h.root.Mutation().CreateManagementWebhook(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, w, err, webhookAny)
}

// listWebhooks serves GET …/webhooks: every configuration, oldest first.
func (h handlers) listWebhooks(c *gin.Context) {
	ws, err := h.root.Query().ManagementWebhooks(c.Request.Context(), c.Param("projectId"))
	httpkit.Answer(c, http.StatusOK, ws, err, func(ws []*ent.Webhook) any { return httpkit.ListOf(ws, webhookJSON) })
}

// getWebhook serves GET …/webhooks/{webhookId}.
func (h handlers) getWebhook(c *gin.Context) {
	w, err := h.root.Query().ManagementWebhook(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"))
	httpkit.Answer(c, http.StatusOK, w, err, webhookAny)
}

// updateWebhook serves PUT …/webhooks/{webhookId}: {target_url, events,
// active?}; the events replace the configured ones.
func (h handlers) updateWebhook(c *gin.Context) {
	var in webhook.WebhookInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	w, err := h.root.Mutation().UpdateManagementWebhook(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"), in)
	httpkit.Answer(c, http.StatusOK, w, err, webhookAny)
}

// deleteWebhook serves DELETE …/webhooks/{webhookId}: 204.
func (h handlers) deleteWebhook(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementWebhook(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

// listWebhookEvents serves GET …/webhooks/{webhookId}/events (status,
// limit, page): the events written for the webhook, newest first.
func (h handlers) listWebhookEvents(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var state *string
	httpkit.QueryStrings(c, map[string]**string{"status": &state})
	l, err := h.root.Query().ManagementWebhookEvents(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"), state, limit, page)
	httpkit.Answer(c, http.StatusOK, l, err, func(l *access.WebhookEventList) any {
		out := make([]webhookEventBody, len(l.Data))
		for i, ev := range l.Data {
			out[i] = webhookEventJSON(ev, false)
		}
		return httpkit.NewList(out, l.Total)
	})
}

// getWebhookEvent serves GET …/webhooks/{webhookId}/events/{eventId}, with its data.
func (h handlers) getWebhookEvent(c *gin.Context) {
	ev, err := h.root.Query().ManagementWebhookEvent(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"), c.Param("eventId"))
	httpkit.Answer(c, http.StatusOK, ev, err, func(ev *ent.WebhookEvent) any { return webhookEventJSON(ev, true) })
}

// redeliverWebhookEvent serves POST …/webhooks/{webhookId}/events/{eventId}/redeliver:
// the event is sent again soon (202, the event, now PENDING).
func (h handlers) redeliverWebhookEvent(c *gin.Context) {
	ev, err := h.root.Mutation().RedeliverManagementWebhookEvent(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"), c.Param("eventId"))
	httpkit.Answer(c, http.StatusAccepted, ev, err, func(ev *ent.WebhookEvent) any { return webhookEventJSON(ev, false) })
}

// listWebhookDeliveries serves GET …/webhooks/{webhookId}/deliveries
// (event_id, limit, page): delivery attempts, newest first.
func (h handlers) listWebhookDeliveries(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var eventID *string
	httpkit.QueryStrings(c, map[string]**string{"event_id": &eventID})
	l, err := h.root.Query().ManagementWebhookDeliveries(c.Request.Context(), c.Param("projectId"), c.Param("webhookId"), eventID, limit, page)
	httpkit.Answer(c, http.StatusOK, l, err, func(l *access.WebhookDeliveryList) any {
		out := make([]webhookDeliveryBody, len(l.Data))
		for i, d := range l.Data {
			out[i] = webhookDeliveryJSON(d)
		}
		return httpkit.NewList(out, l.Total)
	})
}

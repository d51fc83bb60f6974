package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
)

// Webhook configurations, their events and delivery attempts, under
// /management/v1/projects/{projectId}/webhooks (management keys). The
// configuration routes are the real service's (ManagementProjectsWebhook*);
// …/events, …/deliveries and …/redeliver are promoengine's own
// (docs/webhooks.md).

// webhookBody is the real service's webhook configuration object.
type webhookBody struct {
	ID        string    `json:"id"`
	Object    string    `json:"object"`
	CreatedAt timestamp `json:"created_at"`
	TargetURL string    `json:"target_url"`
	Events    []string  `json:"events"`
	Active    bool      `json:"active"`
}

func webhookJSON(h *ent.Webhook) webhookBody {
	events := h.Events
	if events == nil {
		events = []string{}
	}
	return webhookBody{ID: h.ID, Object: "webhook", CreatedAt: timestamp(h.CreatedAt), TargetURL: h.TargetURL,
		Events: events, Active: h.Active}
}

// webhookEventBody is one event written for a webhook (a sendout): its
// delivery state and, when read alone, its payload's data.
type webhookEventBody struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	WebhookID         string          `json:"webhook_id"`
	Type              string          `json:"type"`
	RelatedObjectType string          `json:"related_object_type"`
	RelatedObjectID   string          `json:"related_object_id"`
	Status            string          `json:"status"`
	Attempts          int             `json:"attempts"`
	NextAttemptAt     *timestamp      `json:"next_attempt_at"`
	DeliveredAt       *timestamp      `json:"delivered_at"`
	CreatedAt         timestamp       `json:"created_at"`
	Data              json.RawMessage `json:"data,omitempty"`
}

func webhookEventJSON(ev *ent.WebhookEvent, withData bool) webhookEventBody {
	out := webhookEventBody{ID: ev.ID, Object: "webhook_event", WebhookID: ev.WebhookID, Type: ev.Type,
		RelatedObjectType: ev.ObjectType, RelatedObjectID: ev.ObjectID, Status: ev.State.String(),
		Attempts: ev.Attempts, DeliveredAt: optionalTime(ev.DeliveredAt), CreatedAt: timestamp(ev.CreatedAt)}
	if ev.State.String() == "PENDING" {
		out.NextAttemptAt = optionalTime(&ev.NextAttemptAt)
	}
	if withData {
		out.Data = json.RawMessage(ev.Data)
	}
	return out
}

// webhookDeliveryBody is one delivery attempt.
type webhookDeliveryBody struct {
	ID         string    `json:"id"`
	Object     string    `json:"object"`
	WebhookID  string    `json:"webhook_id"`
	EventID    string    `json:"event_id"`
	Attempt    int       `json:"attempt"`
	TargetURL  string    `json:"target_url"`
	StatusCode *int      `json:"status_code"`
	Success    bool      `json:"success"`
	Error      *string   `json:"error"`
	DurationMs int64     `json:"duration_ms"`
	CreatedAt  timestamp `json:"created_at"`
}

func webhookDeliveryJSON(d *ent.WebhookDelivery) webhookDeliveryBody {
	return webhookDeliveryBody{ID: d.ID, Object: "webhook_delivery", WebhookID: d.WebhookID, EventID: d.EventID,
		Attempt: d.Attempt, TargetURL: d.TargetURL, StatusCode: d.StatusCode, Success: d.Success, Error: d.Error,
		DurationMs: d.DurationMs, CreatedAt: timestamp(d.CreatedAt)}
}

// registerWebhooks mounts the webhook routes on a project's management group.
func registerWebhooks(mgmt *gin.RouterGroup) {
	mgmt.POST("/webhooks", createWebhook)
	mgmt.GET("/webhooks", listWebhooks)
	mgmt.GET("/webhooks/:webhookId", getWebhook)
	mgmt.PUT("/webhooks/:webhookId", updateWebhook)
	mgmt.DELETE("/webhooks/:webhookId", deleteWebhook)
	mgmt.GET("/webhooks/:webhookId/events", listWebhookEvents)
	mgmt.GET("/webhooks/:webhookId/events/:eventId", getWebhookEvent)
	mgmt.POST("/webhooks/:webhookId/events/:eventId/redeliver", redeliverWebhookEvent)
	mgmt.GET("/webhooks/:webhookId/deliveries", listWebhookDeliveries)
}

// managed runs fn for the path's project (manage) and renders its result.
func managed[T any](c *gin.Context, status int, fn func(ctx context.Context) (T, error), render func(T) any) {
	var out T
	err := manage(c, "", func(ctx context.Context) error {
		var err error
		out, err = fn(ctx)
		return err
	})
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

// createWebhook serves POST …/webhooks: {target_url, events, active?}.
func createWebhook(c *gin.Context) {
	var in graph.WebhookInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	managed(c, http.StatusOK, func(ctx context.Context) (*ent.Webhook, error) { return graph.CreateWebhook(ctx, in) },
		func(h *ent.Webhook) any { return webhookJSON(h) })
}

// listWebhooks serves GET …/webhooks: every configuration, oldest first.
func listWebhooks(c *gin.Context) {
	managed(c, http.StatusOK, graph.Webhooks, func(hs []*ent.Webhook) any {
		out := make([]webhookBody, len(hs))
		for i, h := range hs {
			out[i] = webhookJSON(h)
		}
		return newList(out, len(out))
	})
}

// getWebhook serves GET …/webhooks/{webhookId}.
func getWebhook(c *gin.Context) {
	managed(c, http.StatusOK, func(ctx context.Context) (*ent.Webhook, error) { return graph.WebhookByID(ctx, c.Param("webhookId")) },
		func(h *ent.Webhook) any { return webhookJSON(h) })
}

// updateWebhook serves PUT …/webhooks/{webhookId}: {target_url, events,
// active?}; the events replace the configured ones.
func updateWebhook(c *gin.Context) {
	var in graph.WebhookInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	managed(c, http.StatusOK, func(ctx context.Context) (*ent.Webhook, error) {
		return graph.UpdateWebhook(ctx, c.Param("webhookId"), in)
	}, func(h *ent.Webhook) any { return webhookJSON(h) })
}

// deleteWebhook serves DELETE …/webhooks/{webhookId}: 204.
func deleteWebhook(c *gin.Context) {
	managed(c, http.StatusNoContent, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, graph.DeleteWebhook(ctx, c.Param("webhookId"))
	}, nil)
}

// listWebhookEvents serves GET …/webhooks/{webhookId}/events (status,
// limit, page): the events written for the webhook, newest first.
func listWebhookEvents(c *gin.Context) {
	limit, page, err := limitAndPage(c)
	if err != nil {
		renderError(c, err)
		return
	}
	in := graph.WebhookEventListInput{Limit: limit, Page: page}
	queryStrings(c, map[string]**string{"status": &in.State})
	type eventPage struct {
		evs   []*ent.WebhookEvent
		total int
	}
	managed(c, http.StatusOK, func(ctx context.Context) (eventPage, error) {
		evs, total, err := graph.WebhookEvents(ctx, c.Param("webhookId"), in)
		return eventPage{evs, total}, err
	}, func(p eventPage) any {
		out := make([]webhookEventBody, len(p.evs))
		for i, ev := range p.evs {
			out[i] = webhookEventJSON(ev, false)
		}
		return newList(out, p.total)
	})
}

// getWebhookEvent serves GET …/webhooks/{webhookId}/events/{eventId}, with its data.
func getWebhookEvent(c *gin.Context) {
	managed(c, http.StatusOK, func(ctx context.Context) (*ent.WebhookEvent, error) {
		return graph.WebhookEventByID(ctx, c.Param("webhookId"), c.Param("eventId"))
	}, func(ev *ent.WebhookEvent) any { return webhookEventJSON(ev, true) })
}

// redeliverWebhookEvent serves POST …/webhooks/{webhookId}/events/{eventId}/redeliver:
// the event is sent again soon (202, the event, now PENDING).
func redeliverWebhookEvent(c *gin.Context) {
	managed(c, http.StatusAccepted, func(ctx context.Context) (*ent.WebhookEvent, error) {
		return graph.RedeliverWebhookEvent(ctx, c.Param("webhookId"), c.Param("eventId"))
	}, func(ev *ent.WebhookEvent) any { return webhookEventJSON(ev, false) })
}

// listWebhookDeliveries serves GET …/webhooks/{webhookId}/deliveries
// (event_id, limit, page): delivery attempts, newest first.
func listWebhookDeliveries(c *gin.Context) {
	limit, page, err := limitAndPage(c)
	if err != nil {
		renderError(c, err)
		return
	}
	var eventID *string
	queryStrings(c, map[string]**string{"event_id": &eventID})
	type deliveryPage struct {
		ds    []*ent.WebhookDelivery
		total int
	}
	managed(c, http.StatusOK, func(ctx context.Context) (deliveryPage, error) {
		ds, total, err := graph.WebhookDeliveries(ctx, c.Param("webhookId"), eventID, limit, page)
		return deliveryPage{ds, total}, err
	}, func(p deliveryPage) any {
		out := make([]webhookDeliveryBody, len(p.ds))
		for i, d := range p.ds {
			out[i] = webhookDeliveryJSON(d)
		}
		return newList(out, p.total)
	})
}

// denyPrivateWebhookTargets makes webhook target URLs set through this
// request refuse private and loopback addresses (Options.WebhookDenyPrivate).
func denyPrivateWebhookTargets(c *gin.Context) {
	c.Request = c.Request.WithContext(graph.WithWebhookTargetsDenyPrivate(c.Request.Context()))
	c.Next()
}

// webhookRenderer renders the entities of webhook payloads exactly as the
// REST API answers them. Asset links are absolute with a PublicURL and
// relative (/v1/assets/…) without one, as no request names the host.
func webhookRenderer(vouchers voucherHandlers) graph.WebhookRenderer {
	redemptions := redemptionHandlers{vouchers: vouchers}
	publications := publicationHandlers{vouchers}
	relative := func(b *voucherBody) {
		if vouchers.publicURL == "" {
			b.Assets.QR.URL = strings.TrimPrefix(b.Assets.QR.URL, "http://")
			b.Assets.Barcode.URL = strings.TrimPrefix(b.Assets.Barcode.URL, "http://")
		}
	}
	return func(_ context.Context, entity any) (any, bool) {
		c := &gin.Context{Request: &http.Request{}}
		switch e := entity.(type) {
		case *ent.Voucher:
			b := vouchers.voucherJSON(c, e)
			relative(&b)
			return b, true
		case *ent.Campaign:
			return campaignJSON(e), true
		case *ent.Customer:
			return customerJSON(e), true
		case *ent.Publication:
			b := publications.publicationJSON(c, e)
			if b.Voucher != nil {
				relative(b.Voucher)
			}
			return b, true
		case *ent.Redemption:
			b := redemptions.redemptionJSON(c, e)
			if v, ok := b["voucher"].(voucherBody); ok {
				relative(&v)
				b["voucher"] = v
			}
			return b, true
		case *ent.VoucherTransaction:
			return voucherTransactionJSON(e), true
		case *ent.AsyncAction:
			return asyncActionJSON(e), true
		}
		return nil, false
	}
}

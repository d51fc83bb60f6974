package management

import (
	"encoding/json"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// The JSON shapes of webhook configurations, their events and delivery
// attempts (routes in webhooks.go, management keys). The
// configuration routes are the real service's (ManagementProjectsWebhook*);
// …/events, …/deliveries and …/redeliver are promoengine's own
// (docs/webhooks.md).

// webhookBody is the real service's webhook configuration object.
type webhookBody struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	CreatedAt httpkit.Timestamp `json:"created_at"`
	TargetURL string            `json:"target_url"`
	Events    []string          `json:"events"`
	Active    bool              `json:"active"`
}

func webhookJSON(h *ent.Webhook) webhookBody {
	events := h.Events
	if events == nil {
		events = []string{}
	}
	return webhookBody{ID: h.ID, Object: "webhook", CreatedAt: httpkit.Timestamp(h.CreatedAt), TargetURL: h.TargetURL,
		Events: events, Active: h.Active}
}

// webhookEventBody is one event written for a webhook (a sendout): its
// delivery state and, when read alone, its payload's data.
type webhookEventBody struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	WebhookID         string             `json:"webhook_id"`
	Type              string             `json:"type"`
	RelatedObjectType string             `json:"related_object_type"`
	RelatedObjectID   string             `json:"related_object_id"`
	Status            string             `json:"status"`
	Attempts          int                `json:"attempts"`
	NextAttemptAt     *httpkit.Timestamp `json:"next_attempt_at"`
	DeliveredAt       *httpkit.Timestamp `json:"delivered_at"`
	CreatedAt         httpkit.Timestamp  `json:"created_at"`
	Data              json.RawMessage    `json:"data,omitempty"`
}

func webhookEventJSON(ev *ent.WebhookEvent, withData bool) webhookEventBody {
	out := webhookEventBody{ID: ev.ID, Object: "webhook_event", WebhookID: ev.WebhookID, Type: ev.Type,
		RelatedObjectType: ev.ObjectType, RelatedObjectID: ev.ObjectID, Status: ev.State.String(),
		Attempts: ev.Attempts, DeliveredAt: httpkit.OptionalTime(ev.DeliveredAt), CreatedAt: httpkit.Timestamp(ev.CreatedAt)}
	if ev.State.String() == "PENDING" {
		out.NextAttemptAt = httpkit.OptionalTime(&ev.NextAttemptAt)
	}
	if withData {
		out.Data = json.RawMessage(ev.Data)
	}
	return out
}

// webhookDeliveryBody is one delivery attempt.
type webhookDeliveryBody struct {
	ID         string            `json:"id"`
	Object     string            `json:"object"`
	WebhookID  string            `json:"webhook_id"`
	EventID    string            `json:"event_id"`
	Attempt    int               `json:"attempt"`
	TargetURL  string            `json:"target_url"`
	StatusCode *int              `json:"status_code"`
	Success    bool              `json:"success"`
	Error      *string           `json:"error"`
	DurationMs int64             `json:"duration_ms"`
	CreatedAt  httpkit.Timestamp `json:"created_at"`
}

func webhookDeliveryJSON(d *ent.WebhookDelivery) webhookDeliveryBody {
	return webhookDeliveryBody{ID: d.ID, Object: "webhook_delivery", WebhookID: d.WebhookID, EventID: d.EventID,
		Attempt: d.Attempt, TargetURL: d.TargetURL, StatusCode: d.StatusCode, Success: d.Success, Error: d.Error,
		DurationMs: d.DurationMs, CreatedAt: httpkit.Timestamp(d.CreatedAt)}
}

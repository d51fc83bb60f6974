package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/promoengine/promoengine/graph/loyalty"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The JSON shapes of webhook configurations, their events and delivery
// attempts (routes in management_webhooks.go, management keys). The
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

// webhookRenderer renders the entities of webhook payloads exactly as the
// REST API answers them, with the handlers' public URL. They are rendered
// outside any request (one with no host), so without a PublicURL asset
// links are relative (/v1/assets/…), see voucherHandlers.baseURL.
func webhookRenderer(vouchers voucherHandlers) webhook.Renderer {
	redemptions := redemptionHandlers{vouchers: vouchers}
	publications := publicationHandlers{vouchers}
	return func(ctx context.Context, entity any) (any, bool) {
		c := &gin.Context{Request: (&http.Request{}).WithContext(ctx)}
		switch e := entity.(type) {
		case *ent.Voucher:
			return vouchers.voucherJSON(c, e), true
		case *ent.Campaign:
			return campaignJSON(e), true
		case *ent.Customer:
			return customerJSON(e), true
		case *ent.Publication:
			return publications.publicationJSON(c, e), true
		case *ent.Redemption:
			return redemptions.redemptionJSON(c, e), true
		case *ent.VoucherTransaction:
			return voucherTransactionJSON(e), true
		case *ent.AsyncAction:
			return asyncActionJSON(e), true
		case *ent.Card:
			return cardJSON(e), true
		case *ent.CardTransaction:
			return cardTransactionJSON(e), true
		case *ent.LoyaltyMember:
			// The cards' summaries as the API shows them (read in the
			// event's transaction; left out if they cannot be read).
			sums, err := loyalty.CardSummaries(ctx, e.Edges.Cards)
			if err != nil {
				sums = nil
			}
			return memberJSON(e, e.Edges.Cards, sums), true
		case *ent.PromotionTier:
			return tierJSON(e, nil), true
		case *ent.PromotionStack:
			return stackJSON(e), true
		case *ent.PointsBucket:
			if strings.HasPrefix(e.ID, pulid.PrefixPendingPoints) {
				return pendingPointsJSON(e), true
			}
			return pointsBucketJSON(e), true
		}
		return nil, false
	}
}

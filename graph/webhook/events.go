package webhook

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/webhookdelivery"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	pagepkg "github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A webhook's events, their delivery attempts and manual redelivery
// (management API and GraphQL).

// WebhookEventListInput filters a webhook's events: State (PENDING,
// DELIVERED, FAILED; empty for all), v1 limit and page. Newest first.
type WebhookEventListInput struct {
	State *string
	Limit *int
	Page  *int
}

// Events lists a webhook's events (the outbox rows written for it)
// and how many match.
func Events(ctx context.Context, webhookID string, in WebhookEventListInput) ([]*ent.WebhookEvent, int, error) {
	if _, err := ByID(ctx, webhookID); err != nil {
		return nil, 0, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, 0, err
	}
	n, offset, err := pagepkg.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, 0, err
	}
	q := c.WebhookEvent.Query().Where(webhookevent.WebhookID(webhookID))
	if in.State != nil && *in.State != "" {
		state := webhookevent.State(strings.ToUpper(*in.State))
		if webhookevent.StateValidator(state) != nil {
			return nil, 0, apperr.InvalidQueryParams("Query parameter status must be PENDING, DELIVERED or FAILED")
		}
		q.Where(webhookevent.StateEQ(state))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, 0, fmt.Errorf("counting webhook events: %w", err)
	}
	evs, err := q.Order(ent.Desc(webhookevent.FieldID)).Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("listing webhook events: %w", err)
	}
	return evs, total, withRenderedData(ctx, evs...)
}

// EventByID reads one event of a webhook (404 otherwise).
func EventByID(ctx context.Context, webhookID, eventID string) (*ent.WebhookEvent, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ev, err := c.WebhookEvent.Query().Where(webhookevent.ID(eventID), webhookevent.WebhookID(webhookID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("webhook_event", eventID)
	}
	if err != nil {
		return nil, fmt.Errorf("reading webhook event: %w", err)
	}
	return ev, withRenderedData(ctx, ev)
}

// Deliveries lists the delivery attempts of a webhook, newest
// first, optionally of one of its events, and how many match.
func Deliveries(ctx context.Context, webhookID string, eventID *string, limit, page *int) ([]*ent.WebhookDelivery, int, error) {
	if _, err := ByID(ctx, webhookID); err != nil {
		return nil, 0, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, 0, err
	}
	n, offset, err := pagepkg.Offset(limit, page)
	if err != nil {
		return nil, 0, err
	}
	q := c.WebhookDelivery.Query().Where(webhookdelivery.WebhookID(webhookID))
	if eventID != nil && *eventID != "" {
		q.Where(webhookdelivery.EventID(*eventID))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, 0, fmt.Errorf("counting webhook deliveries: %w", err)
	}
	ds, err := q.Order(ent.Desc(webhookdelivery.FieldID)).Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("listing webhook deliveries: %w", err)
	}
	return ds, total, nil
}

// RedeliverWebhookEvent sends an event of the webhook again: it becomes
// PENDING, due now, with a fresh retry window. Any state may be sent
// again (a DELIVERED one too, for a receiver that lost it); the payload
// is the one written with the event. Receivers deduplicate on the id.
func RedeliverWebhookEvent(ctx context.Context, webhookID, eventID string) (*ent.WebhookEvent, error) {
	if _, err := ByID(ctx, webhookID); err != nil {
		return nil, err
	}
	ev, err := EventByID(ctx, webhookID, eventID)
	if err != nil {
		return nil, err
	}
	now := clock.Now()
	ev, err = ev.Update().SetState(webhookevent.StatePENDING).SetNextAttemptAt(now).SetRetrySince(now).
		ClearDeliveredAt().Save(ctx)
	if ent.IsNotFound(err) { // pruned meanwhile (prune.go)
		return nil, apperr.NotFound("webhook_event", eventID)
	}
	if err != nil {
		return nil, fmt.Errorf("scheduling redelivery: %w", err)
	}
	return ev, withRenderedData(ctx, ev)
}

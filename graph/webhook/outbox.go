package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhook"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The transactional outbox of webhooks. A use case calls emitEvent in the
// transaction of its change; emitEvent writes one webhook_events row per
// active webhook of the project subscribed to the event (fan-out when the
// event is written), with the payload's data built there and then. The
// rows commit or roll back with the change: no event without its change,
// no change without its event, whatever happens to the process afterwards.
// Delivery (delivery.go) happens later, in the job workers, so a
// slow or dead receiver never slows the request. A project without
// webhooks pays one indexed query per transaction (webhook_memo.go) and
// writes nothing.

// Event is one event to write: its name, the object whose events are
// delivered in order, and the data (keys → entities or plain values). When
// load is set, it supplies the data instead, and is called only when a
// webhook is subscribed to the event (data that costs queries to gather).
type Event struct {
	Name       string
	ObjectType string
	ObjectID   string
	Data       map[string]any
	Load       func(ctx context.Context) (map[string]any, error)
}

// EmitEvent writes the event name about objectType/objectID to the outbox
// of the project in ctx, for each active webhook subscribed to it, using
// the transaction in ctx. data maps payload keys (voucher, customer, …) to
// entities, which are rendered in their REST shapes (SetWebhookRenderer).
func Emit(ctx context.Context, name, objectType, objectID string, data map[string]any) error {
	return EmitAll(ctx, Event{Name: name, ObjectType: objectType, ObjectID: objectID, Data: data})
}

// EmitEvents writes several events with one look-up of the webhooks.
func EmitAll(ctx context.Context, events ...Event) error {
	if len(events) == 0 {
		return nil
	}
	// Events belong to the viewer's project; a system context would see
	// every project's webhooks.
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return fmt.Errorf("writing webhook events: no project in context")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	hooks, err := activeHooks(ctx, c, v.ProjectID)
	if err != nil {
		return err
	}
	if len(hooks) == 0 {
		return nil
	}
	now := clock.Now()
	var rows []*ent.WebhookEventCreate
	for _, ev := range events {
		var data string
		for _, h := range hooks {
			if !slices.Contains(h.Events, ev.Name) {
				continue
			}
			if data == "" {
				values := ev.Data
				if ev.Load != nil {
					if values, err = ev.Load(ctx); err != nil {
						return fmt.Errorf("gathering webhook payload: %w", err)
					}
				}
				if data, err = renderWebhookData(ctx, values); err != nil {
					return err
				}
			}
			rows = append(rows, c.WebhookEvent.Create().SetWebhookID(h.ID).SetType(ev.Name).
				SetObjectType(ev.ObjectType).SetObjectID(ev.ObjectID).SetData(data).
				SetNextAttemptAt(now).SetRetrySince(now).SetCreatedAt(now))
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if err := c.WebhookEvent.CreateBulk(rows...).Exec(ctx); err != nil {
		return fmt.Errorf("writing webhook events: %w", err)
	}
	return nil
}

// activeHooks are the project's active webhooks, read once per transaction
// (store.ActiveWebhooks).
func activeHooks(ctx context.Context, c *ent.Client, project string) ([]*ent.Webhook, error) {
	hooks, err := store.ActiveWebhooks(ctx, project, func() ([]*ent.Webhook, error) {
		return c.Webhook.Query().Where(webhook.Active(true)).
			Select(webhook.FieldID, webhook.FieldEvents).All(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("looking up webhooks: %w", err)
	}
	return hooks, nil
}

// Prefetch reads the project's active webhooks into the transaction's
// memo now, so the events written later in the transaction — while it
// holds a row lock — do not read them then.
func Prefetch(ctx context.Context) error {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return fmt.Errorf("reading webhooks: no project in context")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	_, err = activeHooks(ctx, c, v.ProjectID)
	return err
}

// Renderer turns an entity (*ent.Voucher, *ent.Campaign, …) into
// its REST shape for a webhook payload; ok is false for types it does not
// know. The REST layer registers one (rest.NewRouter), so payloads are
// exactly what the API answers; without one a small fallback shape is used.
type Renderer func(ctx context.Context, entity any) (shape any, ok bool)

var webhookRenderer atomic.Pointer[Renderer]

// SetWebhookRenderer registers how webhook payloads render entities. Every
// router of the process registers the same function, so the last one wins.
func SetWebhookRenderer(r Renderer) {
	if r == nil {
		webhookRenderer.Store(nil)
		return
	}
	webhookRenderer.Store(&r)
}

// renderWebhookData renders every value of data and encodes the object.
func renderWebhookData(ctx context.Context, data map[string]any) (string, error) {
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = renderWebhookObject(ctx, v)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("encoding webhook payload: %w", err)
	}
	return string(b), nil
}

// renderWebhookObject renders one value: nil stays null; entities go
// through the registered renderer, or the fallback when it has none or
// fails.
func renderWebhookObject(ctx context.Context, v any) (out any) {
	if v == nil {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil
	}
	if r := webhookRenderer.Load(); r != nil {
		shaped, ok := func() (shaped any, ok bool) {
			defer func() {
				if recover() != nil {
					shaped, ok = nil, false
				}
			}()
			return (*r)(ctx, v)
		}()
		if ok {
			return shaped
		}
	}
	return fallbackShape(v)
}

// fallbackShape is the payload form of an entity when no REST renderer is
// registered (graph used without the REST layer): its identity only.
func fallbackShape(v any) any {
	switch e := v.(type) {
	case *ent.Voucher:
		return map[string]any{"id": e.ID, "code": e.Code, "campaign_id": e.CampaignID, "object": "voucher"}
	case *ent.Campaign:
		return map[string]any{"id": e.ID, "name": e.Name, "object": "campaign"}
	case *ent.Customer:
		return map[string]any{"id": e.ID, "source_id": e.SourceID, "object": "customer"}
	case *ent.Publication:
		return map[string]any{"id": e.ID, "customer_id": e.CustomerID, "vouchers_id": e.VoucherIds, "object": "publication"}
	case *ent.Redemption:
		return map[string]any{"id": e.ID, "voucher_id": e.VoucherID, "result": e.Result.String(), "object": e.Object.String()}
	case *ent.VoucherTransaction:
		return map[string]any{"id": e.ID, "voucher_id": e.VoucherID, "amount": e.Amount, "type": e.Type.String()}
	case *ent.AsyncAction:
		return map[string]any{"id": e.ID, "type": e.Type, "status": e.Status.String(), "object": "async_action"}
	case *ent.Card:
		return CardSnapshot(e)
	case *ent.CardTransaction:
		return map[string]any{"id": e.ID, "card_id": e.CardID, "amount": e.Amount, "balance": e.Balance,
			"type": e.Type.String(), "object": "card_transaction"}
	case *ent.LoyaltyMember:
		return map[string]any{"id": e.ID, "program_id": e.ProgramID, "customer_id": e.CustomerID, "object": "member"}
	}
	return v
}

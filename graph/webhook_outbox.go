package graph

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
)

// The transactional outbox of webhooks. A use case calls emitEvent in the
// transaction of its change; emitEvent writes one webhook_events row per
// active webhook of the project subscribed to the event (fan-out when the
// event is written), with the payload's data built there and then. The
// rows commit or roll back with the change: no event without its change,
// no change without its event, whatever happens to the process afterwards.
// Delivery (webhook_delivery.go) happens later, in the job workers, so a
// slow or dead receiver never slows the request. A project without
// webhooks pays one indexed query per emitEvent call and writes nothing.

// outboxEvent is one event to write: its name, the object whose events are
// delivered in order, and the data (keys → entities or plain values).
type outboxEvent struct {
	name       string
	objectType string
	objectID   string
	data       map[string]any
}

// emitEvent writes the event name about objectType/objectID to the outbox
// of the project in ctx, for each active webhook subscribed to it, using
// the transaction in ctx. data maps payload keys (voucher, customer, …) to
// entities, which are rendered in their REST shapes (SetWebhookRenderer).
func emitEvent(ctx context.Context, name, objectType, objectID string, data map[string]any) error {
	return emitEvents(ctx, outboxEvent{name: name, objectType: objectType, objectID: objectID, data: data})
}

// emitEvents writes several events with one look-up of the webhooks.
func emitEvents(ctx context.Context, events ...outboxEvent) error {
	if len(events) == 0 {
		return nil
	}
	// Events belong to the viewer's project; a system context would see
	// every project's webhooks.
	if _, ok := viewer.FromContext(ctx); !ok {
		return fmt.Errorf("writing webhook events: no project in context")
	}
	c, err := client(ctx)
	if err != nil {
		return err
	}
	hooks, err := c.Webhook.Query().Where(webhook.Active(true)).
		Select(webhook.FieldID, webhook.FieldEvents).All(ctx)
	if err != nil {
		return fmt.Errorf("looking up webhooks: %w", err)
	}
	if len(hooks) == 0 {
		return nil
	}
	now := nowUTC()
	var rows []*ent.WebhookEventCreate
	for _, ev := range events {
		var data string
		for _, h := range hooks {
			if !slices.Contains(h.Events, ev.name) {
				continue
			}
			if data == "" {
				if data, err = renderWebhookData(ctx, ev.data); err != nil {
					return err
				}
			}
			rows = append(rows, c.WebhookEvent.Create().SetWebhookID(h.ID).SetType(ev.name).
				SetObjectType(ev.objectType).SetObjectID(ev.objectID).SetData(data).
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

// WebhookRenderer turns an entity (*ent.Voucher, *ent.Campaign, …) into
// its REST shape for a webhook payload; ok is false for types it does not
// know. The REST layer registers one (rest.NewRouter), so payloads are
// exactly what the API answers; without one a small fallback shape is used.
type WebhookRenderer func(ctx context.Context, entity any) (shape any, ok bool)

var webhookRenderer atomic.Pointer[WebhookRenderer]

// SetWebhookRenderer registers how webhook payloads render entities. Every
// router of the process registers the same function, so the last one wins.
func SetWebhookRenderer(r WebhookRenderer) {
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
	}
	return v
}

// The events of the use cases. Each is called in the transaction of its
// change, near its end.

// emitPublication: publication.succeeded (ordered per publication) and
// voucher.published for each voucher handed out (ordered per voucher).
func emitPublication(ctx context.Context, pub *ent.Publication, cmp *ent.Campaign) error {
	cust := pub.Edges.Customer
	events := []outboxEvent{{name: EventPublicationSucceeded, objectType: "publication", objectID: pub.ID,
		data: map[string]any{"publication": pub, "customer": cust, "campaign": cmp}}}
	for _, v := range pub.Edges.Vouchers {
		events = append(events, outboxEvent{name: EventVoucherPublished, objectType: "voucher", objectID: v.ID,
			data: map[string]any{"voucher": v, "customer": cust, "campaign": cmp, "publication": pub}})
	}
	return emitEvents(ctx, events...)
}

// emitRedemptions: name (redemption.succeeded, redemption.failed,
// redemption.rollback.succeeded) for each entry, ordered per voucher (or
// per entry when it has no voucher).
func emitRedemptions(ctx context.Context, name string, rs ...*ent.Redemption) error {
	events := make([]outboxEvent, 0, len(rs))
	for _, r := range rs {
		if r == nil {
			continue
		}
		objectType, objectID := "redemption", r.ID
		if r.VoucherID != nil {
			objectType, objectID = "voucher", *r.VoucherID
		}
		data := map[string]any{"redemption": r, "customer": r.Edges.Customer, "voucher": r.Edges.Voucher}
		if v := r.Edges.Voucher; v != nil {
			data["campaign"] = v.Edges.Campaign
		}
		events = append(events, outboxEvent{name: name, objectType: objectType, objectID: objectID, data: data})
	}
	return emitEvents(ctx, events...)
}

// emitVoucher: a voucher event (voucher.created, .updated, .deleted, …).
func emitVoucher(ctx context.Context, name string, v *ent.Voucher) error {
	return emitEvent(ctx, name, "voucher", v.ID, map[string]any{"voucher": v, "campaign": v.Edges.Campaign})
}

// emitVoucherChange: voucher.enabled or voucher.disabled when the active
// state changed, voucher.updated when anything else was given.
func emitVoucherChange(ctx context.Context, before, after *ent.Voucher, in UpdateVoucherInput) error {
	var events []outboxEvent
	data := map[string]any{"voucher": after, "campaign": after.Edges.Campaign}
	if in.Active != nil && before.Active != after.Active {
		name := EventVoucherDisabled
		if after.Active {
			name = EventVoucherEnabled
		}
		events = append(events, outboxEvent{name: name, objectType: "voucher", objectID: after.ID, data: data})
	}
	in.Active = nil
	if !reflect.ValueOf(in).IsZero() {
		events = append(events, outboxEvent{name: EventVoucherUpdated, objectType: "voucher", objectID: after.ID, data: data})
	}
	return emitEvents(ctx, events...)
}

// emitCampaign: a campaign event (campaign.created, .updated, .deleted, …).
func emitCampaign(ctx context.Context, name string, cmp *ent.Campaign) error {
	return emitEvent(ctx, name, "campaign", cmp.ID, map[string]any{"campaign": cmp})
}

// emitCustomer: customer.created or customer.deleted.
func emitCustomer(ctx context.Context, name string, cust *ent.Customer) error {
	return emitEvent(ctx, name, "customer", cust.ID, map[string]any{"customer": cust})
}

// emitGiftBalance: voucher.gift.balance_added when credits were added.
func emitGiftBalance(ctx context.Context, v *ent.Voucher, b *VoucherBalance) error {
	if b.Amount <= 0 {
		return nil
	}
	return emitEvent(ctx, EventVoucherGiftBalanceAdded, "voucher", v.ID, map[string]any{"voucher": v,
		"transaction": b.Transaction, "balance": map[string]any{"amount": b.Amount, "total": b.Total,
			"balance": b.Balance, "type": b.Type, "object": "balance"}})
}

// emitGenerationDone: campaign.vouchers.generation.completed (or .failed)
// when a generation job of the campaign ends.
func emitGenerationDone(ctx context.Context, jobID string, failure error) error {
	c, err := client(ctx)
	if err != nil {
		return err
	}
	job, err := c.AsyncAction.Get(ctx, jobID)
	if err != nil {
		return fmt.Errorf("reading job: %w", err)
	}
	if job.Type != JobVouchersGeneration || job.CampaignID == nil {
		return nil
	}
	cmp, err := c.Campaign.Get(ctx, *job.CampaignID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading campaign: %w", err)
	}
	name := EventCampaignVouchersGenerationCompleted
	if failure != nil {
		name = EventCampaignVouchersGenerationFailed
	}
	return emitEvent(ctx, name, "campaign", cmp.ID, map[string]any{"campaign": cmp, "async_action": job})
}

// emitRollback: redemption.rollback.succeeded for the rollback of each
// redemption reverted (the children of a stacked one).
func emitRollback(ctx context.Context, res *RollbackResult) error {
	rs := res.Rollbacks
	if len(rs) == 0 {
		rs = []*ent.Redemption{res.Rollback}
	}
	return emitRedemptions(ctx, EventRedemptionRollbackSucceeded, rs...)
}

// emitCampaignDeleted: campaign.deleted, written with the deletion of the
// campaign row (the last batch of its deletion job).
func emitCampaignDeleted(ctx context.Context, campaignID string) error {
	c, err := client(ctx)
	if err != nil {
		return err
	}
	cmp, err := c.Campaign.Get(ctx, campaignID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading campaign: %w", err)
	}
	return emitCampaign(ctx, EventCampaignDeleted, cmp)
}

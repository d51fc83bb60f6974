package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ID prefixes of the webhook entities: wh_ like the real service's webhook
// configurations, whs_ like its sendouts (one event for one webhook, the
// payload's id), whd_ for one delivery attempt.
const (
	prefixWebhook         = "wh_"
	prefixWebhookEvent    = "whs_"
	prefixWebhookDelivery = "whd_"
)

// Webhook is a project's webhook configuration: where events are POSTed
// and which events. Managed through /management/v1/projects/{id}/webhooks.
type Webhook struct{ ent.Schema }

// Mixin of the Webhook.
func (Webhook) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: prefixWebhook, Length: 24}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the Webhook.
func (Webhook) Fields() []ent.Field {
	return []ent.Field{
		// target_url is an http(s) URL, checked when set (graph/webhooks.go).
		field.String("target_url").NotEmpty().MaxLen(2048),
		// events are the event names (e.g. redemption.succeeded) that are sent.
		field.Strings("events"),
		field.Bool("active").Default(true),
	}
}

// Annotations of the Webhook: administered through the management API,
// not part of the generated GraphQL graph.
func (Webhook) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// WebhookEvent is the transactional outbox: one row per event and
// subscribed webhook (fan-out when the event is written), inserted in the
// transaction of the change that causes it, so a rolled-back change leaves
// no event and a committed one always has its rows. Delivery workers claim
// due rows with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL); only the
// oldest pending row of a (webhook, object) pair is due, so each receiver
// sees one object's events in order. IDs sort in creation order.
type WebhookEvent struct{ ent.Schema }

// Mixin of the WebhookEvent.
func (WebhookEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: prefixWebhookEvent, Ordered: true, Length: 18}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the WebhookEvent.
func (WebhookEvent) Fields() []ent.Field {
	return []ent.Field{
		field.String("webhook_id").NotEmpty().Immutable(),
		// type is the event name (voucher.published, …).
		field.String("type").NotEmpty().Immutable(),
		// object_type and object_id name the object whose events are
		// delivered in order (a voucher, customer, campaign, …).
		field.String("object_type").NotEmpty().Immutable(),
		field.String("object_id").NotEmpty().Immutable(),
		// data is the payload's data object, as JSON text, built when the
		// event was written (the objects in their REST shapes).
		field.Text("data").Immutable(),
		field.Enum("state").Values("PENDING", "DELIVERED", "FAILED").Default("PENDING"),
		// attempts counts delivery attempts so far.
		field.Int("attempts").Default(0).NonNegative(),
		// next_attempt_at is when a PENDING row is due.
		field.Time("next_attempt_at"),
		// retry_since starts the retry window (the creation, or the last
		// redelivery by hand); past the window a failing row is FAILED.
		field.Time("retry_since"),
		field.String("claimed_by").Optional().Nillable(),
		field.Time("lease_until").Optional().Nillable(),
		field.Time("delivered_at").Optional().Nillable(),
	}
}

// Indexes of the WebhookEvent: due rows by state and time; the per-object
// order check and the management lists by webhook.
func (WebhookEvent) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("state", "next_attempt_at"),
		index.Fields("webhook_id", "object_id", "state"),
		// A webhook's events, newest first (the management list).
		index.Fields("webhook_id", "id"),
	}
}

// Annotations of the WebhookEvent.
func (WebhookEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// WebhookDelivery is one delivery attempt of a WebhookEvent: what the
// receiver answered (or why there was no answer) and how long it took.
type WebhookDelivery struct{ ent.Schema }

// Mixin of the WebhookDelivery.
func (WebhookDelivery) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: prefixWebhookDelivery, Ordered: true, Length: 18}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the WebhookDelivery.
func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.String("event_id").NotEmpty().Immutable(),
		field.String("webhook_id").NotEmpty().Immutable(),
		field.Int("attempt").Positive().Immutable(),
		// status_code is the receiver's HTTP status; absent when no
		// response arrived (timeout, connection refused, address refused).
		field.Int("status_code").Optional().Nillable().Immutable(),
		field.Bool("success").Immutable(),
		// error says why an attempt failed (truncated).
		field.String("error").Optional().Nillable().MaxLen(1000).Immutable(),
		field.Int64("duration_ms").NonNegative().Immutable(),
		field.String("target_url").MaxLen(2048).Immutable(),
	}
}

// Indexes of the WebhookDelivery: a webhook's deliveries, newest first
// (the management list orders by id), an event's.
func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("webhook_id", "id"),
		index.Fields("event_id"),
	}
}

// Annotations of the WebhookDelivery.
func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

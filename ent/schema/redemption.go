package schema

import (
	"encoding/json"
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Redemption is one entry of the redemption history: a redemption (r_…,
// failed: rf_…) or a rollback of one (rr_…, failed: rrf_…). A stacked
// request stores a parent (related_object_type "redemption") and one child
// per redeemable (parent_id = the parent). A rollback row points at the
// redemption it reverts (rolled_back_id); the reverted redemption's status
// becomes ROLLED_BACK and its rollback_id names the rollback.
type Redemption struct{ ent.Schema }

// Mixin of the Redemption.
func (Redemption) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixRedemption, Length: 18, Hex: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Redemption.
func (Redemption) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("object").Values("redemption", "redemption_rollback").Immutable().
			Annotations(entgql.Type("RedemptionObject")),
		field.Enum("result").Values("SUCCESS", "FAILURE").Immutable().
			Annotations(entgql.Type("RedemptionResult"), entgql.OrderField("RESULT")),
		field.Enum("status").Values("SUCCEEDED", "FAILED", "ROLLED_BACK").
			Annotations(entgql.Type("RedemptionStatus")),
		field.String("failure_code").Optional().Nillable().Immutable(),
		field.String("failure_message").Optional().Nillable().Immutable(),
		// parent_id: the parent redemption (or parent rollback) of a stacked child.
		field.String("parent_id").Optional().Nillable().Immutable(),
		// rolled_back_id: on a rollback, the redemption it reverts.
		field.String("rolled_back_id").Optional().Nillable().Immutable(),
		// rollback_id: on a redemption, the rollback that reverted it.
		field.String("rollback_id").Optional().Nillable(),
		field.String("voucher_id").Optional().Nillable().Immutable(),
		field.String("voucher_code").Optional().Nillable().Immutable().
			Annotations(entgql.OrderField("VOUCHER_CODE")),
		field.String("campaign_id").Optional().Nillable().Immutable(),
		field.String("customer_id").Optional().Nillable().Immutable(),
		field.String("order_id").Optional().Nillable().Immutable(),
		field.String("tracking_id").Optional().Nillable().Immutable(),
		field.String("session_key").Optional().Nillable().Immutable(),
		field.String("reason").Optional().Nillable().Immutable(),
		field.String("related_object_type").Immutable(),
		field.String("related_object_id").Immutable(),
		// amount: gift credits or loyalty points used (negative on rollbacks).
		field.Int64("amount").Optional().Nillable().Immutable(),
		// applied_discount: what this entry took off the order.
		field.Int64("applied_discount").Default(0).Immutable(),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Immutable().
			Annotations(entgql.Type("Map")),
		// order: the calculated order, as the REST API shows it: a document
		// encoded once when the redemption is made and shown as stored.
		field.JSON("order", json.RawMessage{}).Optional().Immutable().Annotations(entgql.Type("Map")),
		field.JSON("reward", map[string]any{}).Optional().Immutable().Annotations(entgql.Type("Map")),
		field.JSON("channel", map[string]any{}).Optional().Immutable().Annotations(entgql.Type("Map")),
	}
}

// Edges of the Redemption.
func (Redemption) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("voucher", Voucher.Type).Ref("redemptions").Field("voucher_id").Unique().Immutable(),
		edge.From("customer", Customer.Type).Ref("redemptions").Field("customer_id").Unique().Immutable(),
	}
}

// Indexes of the Redemption: lists page newest first per project; the
// voucher, customer and parent lookups have their own. Those are partial:
// a row whose key is null (a parent has no voucher and no parent, most rows
// revert nothing, many have no customer) is never looked up through them,
// so it is not written to them — a stacked redemption of one code updates
// six index entries instead of twelve. Queries on key = value use them as
// before (both databases infer "not null" from the equality).
func (Redemption) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "created_at", "id"),
		// The GraphQL connection's order (id) within the project: without
		// it a project that is a small share of the table walked the
		// primary key past other projects' rows, or sorted all its own.
		index.Fields("project_id", "id"),
		index.Fields("voucher_id", "created_at").Annotations(whereNotNull("voucher_id")),
		index.Fields("customer_id", "voucher_id").Annotations(whereNotNull("customer_id")),
		index.Fields("parent_id").Annotations(whereNotNull("parent_id")),
		// GET /v1/redemptions?campaign=: -created_at within the campaign.
		index.Fields("campaign_id", "created_at", "id").Annotations(whereNotNull("campaign_id")),
		// A customer's activities (and GET /v1/redemptions?customer=):
		// -created_at within the customer's redemptions.
		index.Fields("customer_id", "created_at", "id").Annotations(whereNotNull("customer_id")),
		// One successful rollback per redemption, whatever races.
		index.Fields("rolled_back_id", "result").Unique().Annotations(whereNotNull("rolled_back_id")),
		// The rare kinds of entries, newest first within the project: the
		// failures (GET /v1/redemptions?result=FAILURE, filters[result],
		// filters[failure_code]) and the rollbacks (filters[object]).
		// Partial, so that a successful redemption, nearly every entry,
		// writes neither; the lists name them by constants
		// (listfilter.Literal). docs/architecture.md, "Indexes of the list
		// filters".
		index.Fields("project_id", "created_at", "id").StorageKey("redemption_failures_project_id_created_at_id").
			Annotations(entsql.IndexWhere("result = 'FAILURE'")),
		index.Fields("project_id", "created_at", "id").StorageKey("redemption_rollbacks_project_id_created_at_id").
			Annotations(entsql.IndexWhere("object = 'redemption_rollback'")),
	}
}

// whereNotNull makes an index partial: only rows whose column is set.
func whereNotNull(column string) *entsql.IndexAnnotation {
	return entsql.IndexWhere(column + " IS NOT NULL")
}

// Annotations of the Redemption.
func (Redemption) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField(), entgql.RelayConnection(), entgql.MultiOrder()}
}

// Order is an order a validation or redemption named: created on first use,
// found again by id or source_id. calculated keeps the order as the last
// redemption computed it (REST shape); redemptions maps redemption ids to
// their entries in the order's redemptions object.
type Order struct{ ent.Schema }

// Mixin of the Order.
func (Order) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixOrder, Length: 18, Hex: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Order.
func (Order) Fields() []ent.Field {
	return []ent.Field{
		field.String("source_id").Optional().Nillable().NotEmpty().MaxLen(500).Immutable(),
		field.Enum("status").Values("CREATED", "PAID", "CANCELED", "FULFILLED").Default("CREATED").
			Annotations(entgql.Type("OrderStatus")),
		field.String("customer_id").Optional().Nillable(),
		// calculated: the order as the REST API shows it, a stored document
		// (as a redemption's order).
		field.JSON("calculated", json.RawMessage{}).Default(json.RawMessage(`{}`)).Annotations(entgql.Type("Map")),
		field.JSON("redemptions", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		// The amounts of the order as calculated (graph/order keeps them
		// equal to the calculated document's): lists, summaries and
		// exports read them without decoding documents.
		field.Int64("amount").Default(0),
		field.Int64("discount_amount").Default(0),
		field.Int64("items_discount_amount").Default(0),
		field.Int64("total_discount_amount").Default(0),
		field.Int64("total_amount").Default(0),
		field.Int64("applied_discount_amount").Default(0),
		field.Int64("items_applied_discount_amount").Default(0),
		field.Int64("total_applied_discount_amount").Default(0),
		// items: the calculated lines (as in the calculated document).
		field.JSON("items", []map[string]any{}).Optional().Annotations(entgql.Skip()),
		field.String("referrer_id").Optional().Nillable(),
		// paid_earned_at: when the order's first move to PAID fired the
		// customer.order.paid earning rules (never again for this order).
		field.Time("paid_earned_at").Optional().Nillable().Annotations(entgql.Skip()),
		// counted_amount: the amount the order adds to its customer's
		// summary.orders counters now (PAID or FULFILLED), null when it
		// adds nothing; a status change moves the counters by the difference.
		field.Int64("counted_amount").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Indexes of the Order: a source_id names one order of the project; GET
// /v1/orders' default order (-created_at) reads a page off the second.
func (Order) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "source_id").Unique(), index.Fields("project_id", "created_at", "id")}
}

// OrderEvent is one change of an order a customer's activities show
// (customer.order.created, .updated, .paid, .canceled, .fulfilled), with
// the order as it was then.
type OrderEvent struct{ ent.Schema }

// Mixin of the OrderEvent.
func (OrderEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixOrderEvent, Length: 18, Hex: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the OrderEvent.
func (OrderEvent) Fields() []ent.Field {
	return []ent.Field{
		field.String("order_id").Immutable(),
		field.String("customer_id").Immutable(),
		field.String("type").NotEmpty().MaxLen(100).Immutable(),
		field.JSON("order", json.RawMessage{}).Immutable(),
	}
}

// Indexes of the OrderEvent: a customer's activities in time order.
func (OrderEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "customer_id", "created_at", "id")}
}

// Annotations of the OrderEvent: not in GraphQL (customer activities show it).
func (OrderEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// SessionLock holds one unit of a voucher's redemption quantity (and gift
// credits or loyalty points) for a validation session until it expires or
// a redemption with its key consumes it.
type SessionLock struct{ ent.Schema }

// Mixin of the SessionLock.
func (SessionLock) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixSessionLock, Length: 18, Hex: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the SessionLock.
func (SessionLock) Fields() []ent.Field {
	return []ent.Field{
		field.String("key").NotEmpty().MaxLen(200).Immutable(),
		field.String("voucher_id").Immutable(),
		field.Int64("credits").Default(0),
		field.Int64("points").Default(0),
		field.Int64("ttl"),
		field.String("ttl_unit"),
		field.Time("expires_at"),
	}
}

// Indexes of the SessionLock.
func (SessionLock) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "key", "voucher_id").Unique(),
		index.Fields("voucher_id", "expires_at"),
	}
}

// Annotations of the SessionLock: not part of the graph.
func (SessionLock) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

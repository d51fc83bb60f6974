package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// OrderPayment (lotx_) is a v2 order transaction: part of an order paid
// with a member card's points (graph/loyalty/payment/order_payments.go). An
// APPROVED payment names the POINTS_SPENT_ON_ORDER card transaction that
// took the points; a REJECTED one moved nothing (rejection_reason says
// why). The APPROVED amounts of one order never sum above its total.
type OrderPayment struct{ ent.Schema }

// Mixin of the OrderPayment.
func (OrderPayment) Mixin() []ent.Mixin {
	return []ent.Mixin{activityID(pulid.PrefixOrderTx), ProjectMixin{}, TimeMixin{}}
}

// Fields of the OrderPayment.
func (OrderPayment) Fields() []ent.Field {
	return []ent.Field{
		field.String("program_id").Immutable(),
		field.String("member_id").Immutable(),
		field.String("card_id").Immutable(),
		field.String("card_definition_id").Immutable(),
		field.String("card_transaction_id").Optional().Nillable().Immutable(),
		field.String("order_id").Immutable(),
		field.String("status").Immutable(),
		// amount is what the points paid (minor unit), points what they cost.
		field.Int64("amount").Immutable(),
		field.Int64("points").Immutable(),
		field.Float("exchange_ratio").Immutable(),
		// limits: the request's payment limit flattened ({points_limit} or
		// {amount_limit}; empty for CARD_BALANCE).
		field.JSON("limits", map[string]any{}).Optional().Immutable(),
		field.String("rejection_reason").Optional().Nillable().Immutable(),
		// rejection_details: a spending limit's {type, limit[, spendings]}.
		field.JSON("rejection_details", map[string]any{}).Optional().Immutable(),
		// refund_transaction_id: the POINTS_RETURNED card transaction that
		// gave an APPROVED payment's points back when its order was
		// canceled; set once (graph/loyalty/refund/order_refunds.go).
		field.String("refund_transaction_id").Optional().Nillable(),
		// order_amount and order_items: the order as the payment saw it
		// (its total_amount, and its lines {product_id, sku_id, source_id,
		// quantity, price}), the base of partial refunds (REFUND_AMOUNT,
		// REFUND_ITEM); null for payments made before they were recorded.
		field.Int64("order_amount").Optional().Nillable().Immutable(),
		field.JSON("order_items", []map[string]any{}).Optional().Immutable(),
		// returned_points: the points given back so far (partial refunds
		// and the cancel's remainder), moved only by a compare-and-set
		// UPDATE (graph/loyalty/refund/order_refunds.go).
		field.Int64("returned_points").Default(0),
	}
}

// Indexes of the OrderPayment: a member's list, and an order's payments.
func (OrderPayment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("member_id", "created_at", "id"),
		index.Fields("order_id", "status"),
	}
}

// Annotations of the OrderPayment: hand-written GraphQL type.
func (OrderPayment) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// VoucherTransaction is one move of a gift card's credits or a loyalty
// card's points. amount is signed; balance is the card's balance after the
// move, so the last transaction's balance is the card's balance. IDs are
// 18 hex characters, like the real service's, and sort in creation order,
// so moves made in the same millisecond list in the order they happened.
type VoucherTransaction struct{ ent.Schema }

// Mixin of the VoucherTransaction.
func (VoucherTransaction) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixVoucherTx, Length: 4, Ordered: true}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the VoucherTransaction.
func (VoucherTransaction) Fields() []ent.Field {
	return []ent.Field{
		field.String("voucher_id").Immutable(),
		field.String("campaign_id").Optional().Nillable().Immutable(),
		field.Enum("type").Values(
			"CREDITS_ADDITION", "CREDITS_REMOVAL", "CREDITS_REFUND", "CREDITS_REDEMPTION",
			"POINTS_ACCRUAL", "POINTS_REDEMPTION", "POINTS_REFUND", "POINTS_ADDITION", "POINTS_REMOVAL",
			"POINTS_EXPIRATION", "POINTS_TRANSFER_IN", "POINTS_TRANSFER_OUT", "PENDING_POINTS_ACTIVATION",
		).Immutable().Annotations(entgql.Type("VoucherTransactionType")),
		field.String("source_id").Optional().Nillable().Immutable(),
		field.String("reason").Optional().Nillable().Immutable(),
		field.String("source").Default("API").Immutable(),
		field.Int64("amount").Immutable(),
		field.Int64("balance").Immutable(),
		field.JSON("details", map[string]any{}).Default(map[string]any{}).Immutable().
			Annotations(entgql.Type("Map")),
		field.String("related_transaction_id").Optional().Nillable().Immutable(),
	}
}

// Indexes of the VoucherTransaction: exports page a voucher's transactions
// by (created_at, id); GET /v1/campaigns/{id}/transactions pages a
// campaign's by id (transaction ids grow with time).
func (VoucherTransaction) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("voucher_id", "created_at", "id"),
		index.Fields("campaign_id", "id").Annotations(whereNotNull("campaign_id")),
	}
}

// Annotations of the VoucherTransaction.
func (VoucherTransaction) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// Export is a CSV export (of voucher transactions), written by the job
// worker (an async action of type EXPORT.VOUCHER_TRANSACTIONS).
type Export struct{ ent.Schema }

// Mixin of the Export.
func (Export) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixExport, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Export.
func (Export) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("status").Values("SCHEDULED", "IN_PROGRESS", "DONE", "ERROR").Default("SCHEDULED").
			Annotations(entgql.Type("ExportStatus")),
		field.String("channel").Default("API").Immutable(),
		field.String("exported_object").Immutable(),
		field.JSON("parameters", map[string]any{}).Immutable().Annotations(entgql.Type("Map")),
		// voucher_id is the voucher whose transactions are exported.
		field.String("voucher_id").Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		field.String("user_id").Optional().Nillable().Immutable(),
		// rows counts the CSV's data rows (set when DONE). The file itself
		// is stored in the database as export_chunks: chunks of it, in
		// size bytes (null until DONE, and again once the file has expired).
		field.Int("rows").Optional().Nillable(),
		field.Int64("size").Optional().Nillable().Annotations(entgql.Skip(entgql.SkipAll)),
		field.Int("chunks").Optional().Nillable().Annotations(entgql.Skip(entgql.SkipAll)),
		field.String("failure_reason").Optional().Nillable(),
		// download_secret signs the expiring download URLs; never shown.
		field.String("download_secret").Sensitive().Immutable().Annotations(entgql.Skip()),
	}
}

// Indexes of the Export: GET /v1/exports lists the project's newest (its
// project_id index).
func (Export) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at", "id")}
}

// Annotations of the Export.
func (Export) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

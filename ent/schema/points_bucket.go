package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// PointsBucket is a parcel of a loyalty card's points with its own fate,
// shared by both loyalty generations (graph/points): a v1 card is a
// LOYALTY_CARD voucher (voucher_id), a v2 card a card row (card_id).
//
// An ACTIVE bucket (lopb_…) holds points that count in the card's balance
// and expire at the end of expires_at's day (UTC; null: never); spending
// takes points out of the buckets that expire soonest, and the daily job
// turns an ACTIVE bucket past its day into EXPIRED (one guarded UPDATE, so
// two workers never expire it twice). A PENDING entry (lopp_…) holds earned
// points that are not in the balance yet: on activates_at (or by hand) it
// becomes ACTIVATED and credits a new ACTIVE bucket, or it is CANCELED.
type PointsBucket struct{ ent.Schema }

// Mixin of the PointsBucket.
func (PointsBucket) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixPointsBucket, Length: 8, Ordered: true}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the PointsBucket.
func (PointsBucket) Fields() []ent.Field {
	return []ent.Field{
		field.String("voucher_id").Optional().Nillable().Immutable(),
		field.String("card_id").Optional().Nillable().Immutable(),
		field.String("campaign_id").Optional().Nillable().Immutable(),
		field.String("customer_id").Optional().Nillable().Immutable(),
		field.String("order_id").Optional().Nillable().Immutable(),
		// points is what is left in an ACTIVE bucket, the entry's points
		// for the other states.
		field.Int64("points"),
		field.Enum("status").Values("ACTIVE", "EXPIRED", "PENDING", "ACTIVATED", "CANCELED").
			Annotations(entgql.Type("PointsBucketStatus")),
		// expires_at is the last day the points can be used (midnight UTC).
		field.Time("expires_at").Optional().Nillable(),
		// activates_at is the day a PENDING entry activates (midnight UTC).
		field.Time("activates_at").Optional().Nillable(),
		// source is the transaction type that made the bucket.
		field.String("source").Default("POINTS_ADDITION").Immutable(),
		// details are a pending entry's event, earning rule and order, as
		// the API shows them.
		field.JSON("details", map[string]any{}).Default(map[string]any{}).Annotations(entgql.Type("Map")),
		// expiration_rules are the rules that date the bucket a PENDING
		// entry credits when it activates.
		field.JSON("expiration_rules", map[string]any{}).Optional().Annotations(entgql.Skip()),
	}
}

// Indexes of the PointsBucket: a card's buckets by state and expiry (spending
// order, lists), the due buckets of the daily job, a program's pending
// entries by id.
func (PointsBucket) Indexes() []ent.Index {
	return []ent.Index{
		// id last: the expiry lists (v1 points-expiration, v2
		// expiring-points) order by (expires_at, id) and read a page off it.
		// project_id included (PostgreSQL): the points-expiration total
		// counts the card's ACTIVE buckets off the index alone.
		index.Fields("voucher_id", "status", "expires_at", "id").
			Annotations(whereNotNull("voucher_id"), entsql.IncludeColumns("project_id")),
		index.Fields("card_id", "status", "expires_at", "id").Annotations(whereNotNull("card_id")),
		index.Fields("status", "expires_at"),
		index.Fields("status", "activates_at"),
		index.Fields("campaign_id", "status", "id").Annotations(whereNotNull("campaign_id")),
		// A card's pending entries by id (v1 …/members/{id}/pending-points,
		// v2 …/cards/{id}/pending-points), off the rows that were ever
		// pending alone (activates_at is set on pending entries only, so
		// points added at once cost this index nothing).
		index.Fields("voucher_id", "status", "id").StorageKey("pointsbucket_pending_voucher_id_status_id").
			Annotations(whereNotNull("activates_at")),
		index.Fields("card_id", "status", "id").StorageKey("pointsbucket_pending_card_id_status_id").
			Annotations(whereNotNull("activates_at")),
	}
}

// Annotations of the PointsBucket.
func (PointsBucket) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

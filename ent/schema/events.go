package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// MetadataSchema defines the metadata of a related object; for
// related_object "event" its name is a custom event the project accepts.
type MetadataSchema struct{ ent.Schema }

// Mixin of the MetadataSchema.
func (MetadataSchema) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixMetaSchema, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the MetadataSchema.
func (MetadataSchema) Fields() []ent.Field {
	return []ent.Field{
		field.String("related_object").NotEmpty().MaxLen(100).Immutable(),
		field.String("name").NotEmpty().MaxLen(300).Immutable(),
		field.JSON("properties", map[string]jsonfield.MetadataProperty{}).
			Annotations(entgql.Type("Map")),
	}
}

// Indexes of the MetadataSchema: one schema per object kind and name.
func (MetadataSchema) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "related_object", "name").Unique()}
}

// Annotations of the MetadataSchema.
func (MetadataSchema) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField()}
}

// CustomEvent is one custom event sent for a customer (POST /v1/events).
type CustomEvent struct{ ent.Schema }

// Mixin of the CustomEvent.
func (CustomEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixEvent, Length: 24}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the CustomEvent.
func (CustomEvent) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").NotEmpty().MaxLen(300).Immutable(),
		field.String("customer_id").Immutable(),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).Immutable().
			Annotations(entgql.Type("Map")),
		field.String("referral_code").Optional().Nillable().Immutable(),
		field.String("loyalty_code").Optional().Nillable().Immutable(),
	}
}

// Indexes of the CustomEvent.
func (CustomEvent) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("customer_id", "type"),
		// A customer's activities: the events newest first.
		index.Fields("customer_id", "created_at", "id"),
	}
}

// Annotations of the CustomEvent.
func (CustomEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField()}
}

// CustomerEventCount counts a customer's events of one name; updated in the
// transaction that stores the event, it is what segment filters read.
type CustomerEventCount struct{ ent.Schema }

// Mixin of the CustomerEventCount.
func (CustomerEventCount) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixEventCount, Length: 18, Hex: true}, ProjectMixin{}}
}

// Fields of the CustomerEventCount.
func (CustomerEventCount) Fields() []ent.Field {
	return []ent.Field{
		field.String("customer_id").Immutable(),
		field.String("event").NotEmpty().MaxLen(300).Immutable(),
		field.Int("count").Default(0).NonNegative(),
		field.Time("last_at"),
	}
}

// Indexes of the CustomerEventCount.
func (CustomerEventCount) Indexes() []ent.Index {
	return []ent.Index{index.Fields("customer_id", "event").Unique()}
}

// Annotations of the CustomerEventCount.
func (CustomerEventCount) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// ReferralConversion records that a referee converted in a referral
// campaign: at most once per referee and campaign (unique index).
// Rolling back the redemption that converted sets rolled_back_at (the
// conversion no longer counts); a later conversion of the same referee
// reuses the row (its code, referrer and event) and clears it.
type ReferralConversion struct{ ent.Schema }

// Mixin of the ReferralConversion.
func (ReferralConversion) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixReferral, Length: 24}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the ReferralConversion.
func (ReferralConversion) Fields() []ent.Field {
	return []ent.Field{
		field.String("campaign_id").Immutable(),
		field.String("voucher_id"),
		field.String("referrer_id"),
		field.String("referee_id").Immutable(),
		field.String("event_id"),
		field.Time("rolled_back_at").Optional().Nillable(),
	}
}

// Indexes of the ReferralConversion.
func (ReferralConversion) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("campaign_id", "referee_id").Unique(),
		index.Fields("referrer_id"),
		index.Fields("referee_id"),
		index.Fields("event_id"),
	}
}

// Annotations of the ReferralConversion.
func (ReferralConversion) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Segment is a group of customers: static (explicit members) or
// auto-update (members are the customers matching filter, kept current as
// events arrive and customers change).
type Segment struct{ ent.Schema }

// Mixin of the Segment.
func (Segment) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixSegment, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Segment.
func (Segment) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(300).Annotations(entgql.OrderField("NAME")),
		// type is "static" or "auto-update" (not a GraphQL enum: the hyphen).
		field.String("type").NotEmpty().Immutable(),
		field.JSON("filter", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
	}
}

// Indexes of the Segment.
func (Segment) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at", "id"), index.Fields("project_id", "type")}
}

// Annotations of the Segment.
func (Segment) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField()}
}

// SegmentMember says a customer is in a segment since entered_at.
type SegmentMember struct{ ent.Schema }

// Mixin of the SegmentMember.
func (SegmentMember) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixSegmentMember, Length: 18, Hex: true}, ProjectMixin{}}
}

// Fields of the SegmentMember.
func (SegmentMember) Fields() []ent.Field {
	return []ent.Field{
		field.String("segment_id").Immutable(),
		field.String("customer_id").Immutable(),
		field.Time("entered_at").Immutable(),
	}
}

// Indexes of the SegmentMember.
func (SegmentMember) Indexes() []ent.Index {
	return []ent.Index{index.Fields("segment_id", "customer_id").Unique(), index.Fields("customer_id")}
}

// Annotations of the SegmentMember.
func (SegmentMember) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

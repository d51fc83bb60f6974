package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Voucher is a code customers use: a discount, a gift card or a loyalty
// card. Fields follow the interface's Voucher table.
type Voucher struct{ ent.Schema }

// Mixin of the Voucher.
func (Voucher) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixVoucher, Length: 32}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the Voucher.
func (Voucher) Fields() []ent.Field {
	return []ent.Field{
		// Codes are case-sensitive and may hold any printable character.
		field.String("code").NotEmpty().MaxLen(300).Immutable().
			Annotations(entgql.OrderField("CODE")),
		field.String("campaign_id").Optional().Nillable().Immutable(),
		field.Enum("type").GoType(jsonfield.VoucherType("")).Immutable().
			Annotations(entgql.Type("VoucherType")),
		field.String("category").Optional().Nillable(),
		field.String("category_id").Optional().Nillable(),
		field.JSON("discount", &jsonfield.Discount{}).Optional().Annotations(entgql.Type("Discount")),
		field.JSON("gift", &jsonfield.Gift{}).Optional().Annotations(entgql.Type("Gift")),
		field.JSON("loyalty_card", &jsonfield.LoyaltyCard{}).Optional().Annotations(entgql.Type("LoyaltyCard")),
		field.Time("start_date").Optional().Nillable(),
		field.Time("expiration_date").Optional().Nillable(),
		field.JSON("validity_timeframe", &jsonfield.ValidityTimeframe{}).Optional().
			Annotations(entgql.Type("ValidityTimeframe")),
		field.JSON("validity_day_of_week", []int{}).Optional(),
		field.JSON("validity_hours", &jsonfield.ValidityHours{}).Optional().
			Annotations(entgql.Type("ValidityHours")),
		field.Bool("active").Default(true),
		field.String("additional_info").Optional().Nillable(),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).
			Annotations(entgql.Type("Map")),
		field.Bool("is_referral_code").Default(false),
		field.String("holder_id").Optional().Nillable(),
		field.String("referrer_id").Optional().Nillable(),
		field.Int("publish_count").Default(0).NonNegative(),
		field.Int("redemption_quantity").Optional().Nillable().Positive(),
		field.Int("redeemed_quantity").Default(0).NonNegative(),
		field.Int("redeemed_points").Default(0).NonNegative(),
	}
}

// Edges of the Voucher.
func (Voucher) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("campaign", Campaign.Type).Ref("vouchers").Field("campaign_id").Unique().Immutable(),
		edge.From("publications", Publication.Type).Ref("vouchers").
			Annotations(entgql.RelayConnection()),
		edge.To("redemptions", Redemption.Type).Annotations(entgql.RelayConnection()),
		// assigned_category is the voucher's own category, named by
		// category_id (the graph shows it as Voucher.categories).
		edge.From("assigned_category", Category.Type).Ref("vouchers").Field("category_id").Unique().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the Voucher: a code is unique within its project, enforced by
// the database for every writer (requests and bulk jobs alike); the lists'
// default orders and filters read a page off an index (docs/architecture.md,
// "Lists at a million rows").
func (Voucher) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "code").Unique(),
		// Publication picks unpublished vouchers of a campaign from a random
		// id on, off this index of the unpublished ones alone: a published
		// voucher leaves it (its new row version is not indexed here, one
		// index write fewer per publication than the former
		// (campaign_id, publish_count, id), whose publish_count > 0 part
		// grew at random places with every publication), so the pick never
		// walks past published vouchers and the index shrinks as a campaign
		// is published (docs/architecture.md, "The vouchers table under
		// publication").
		index.Fields("campaign_id", "id").StorageKey("voucher_unpublished_campaign_id_id").
			Annotations(entsql.IndexWhere("publish_count = 0")),
		// GET /v1/vouchers: -created_at, of the project or of a campaign.
		// A deep page skips its rows in a sub-select of ids
		// (page.DeferredOffset) that reads these indexes alone: the
		// campaign's includes project_id (PostgreSQL), which the
		// sub-select filters by.
		index.Fields("project_id", "created_at", "id"),
		index.Fields("campaign_id", "created_at", "id").Annotations(entsql.IncludeColumns("project_id")),
		// GraphQL campaign{vouchers}: id order within the campaign.
		index.Fields("campaign_id", "id"),
		// GET /v1/vouchers?customer=: the holder's vouchers.
		index.Fields("holder_id").Annotations(whereNotNull("holder_id")),
		// GET /v1/loyalties/{id}/members: a program's held cards (its
		// members), -created_at, and their capped count, off the held
		// rows alone — a small program in a table of a million cards
		// otherwise counts by scanning the table. It includes project_id
		// (PostgreSQL) so that the count reads the index alone: the held
		// rows of a large program lie all over the table.
		index.Fields("campaign_id", "created_at", "id").StorageKey("voucher_held_campaign_id_created_at_id").
			Annotations(whereNotNull("holder_id"), entsql.IncludeColumns("project_id")),
	}
}

// Annotations of the Voucher.
func (Voucher) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entgql.QueryField(),
		entgql.RelayConnection(),
		entgql.MultiOrder(),
	}
}

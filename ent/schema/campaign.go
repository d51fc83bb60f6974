package schema

import (
	"context"
	"fmt"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Campaign groups vouchers made from one voucher profile. Fields follow the
// interface's Campaign table.
type Campaign struct{ ent.Schema }

// Mixin of the Campaign.
func (Campaign) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixCampaign, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

var skipInputs = entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)

// Fields of the Campaign.
func (Campaign) Fields() []ent.Field {
	generationStatus := []string{"DONE", "IN_PROGRESS", "FAILED", "DRAFT", "MODIFYING"}
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(1000).
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Optional().Nillable(),
		field.Enum("campaign_type").
			Values("LOYALTY_PROGRAM", "GIFT_VOUCHERS", "DISCOUNT_COUPONS", "PROMOTION", "REFERRAL_PROGRAM").
			Immutable().
			Annotations(entgql.Type("CampaignType")),
		// type may move between AUTO_UPDATE and STATIC (updateCampaign).
		field.Enum("type").
			Values("AUTO_UPDATE", "STATIC", "STANDALONE").
			Annotations(entgql.Type("CampaignDistribution")),
		field.Bool("auto_join").Default(false),
		field.Bool("join_once").Default(false),
		field.Bool("use_voucher_metadata_schema").Default(true),
		field.Enum("creation_status").Values(generationStatus...).Default("DONE").
			Annotations(skipInputs, entgql.Type("CampaignCreationStatus")),
		field.Enum("vouchers_generation_status").Values(generationStatus...).Default("DONE").
			Annotations(skipInputs, entgql.Type("CampaignVouchersGenerationStatus")),
		field.Bool("protected").Default(false),
		field.String("category_id").Optional().Nillable(),
		field.String("category").Optional().Nillable(),
		field.JSON("voucher", &jsonfield.VoucherProfile{}).Optional().
			Annotations(entgql.Type("CampaignVoucher")),
		field.JSON("validity_timeframe", &jsonfield.ValidityTimeframe{}).Optional().
			Annotations(entgql.Type("ValidityTimeframe")),
		field.JSON("validity_day_of_week", []int{}).Optional(),
		field.JSON("validity_hours", &jsonfield.ValidityHours{}).Optional().
			Annotations(entgql.Type("ValidityHours")),
		field.String("activity_duration_after_publishing").Optional().Nillable(),
		field.Int("vouchers_count").Default(0).NonNegative().
			Annotations(skipInputs, entgql.OrderField("VOUCHERS_COUNT")),
		field.Time("start_date").Optional().Nillable(),
		field.Time("expiration_date").Optional().Nillable(),
		field.Bool("active").Default(true),
		field.JSON("metadata", map[string]any{}).Default(map[string]any{}).
			Annotations(entgql.Type("Map")),
		field.JSON("referral_program", map[string]any{}).Optional().
			Annotations(entgql.Type("Map")),
		field.JSON("loyalty_tiers_expiration", map[string]any{}).Optional().
			Annotations(entgql.Type("Map")),
		field.JSON("promotion", map[string]any{}).Optional().
			Annotations(entgql.Type("Map")),
	}
}

// Edges of the Campaign.
func (Campaign) Edges() []ent.Edge {
	return append([]ent.Edge{
		edge.To("vouchers", Voucher.Type).
			Annotations(entgql.RelayConnection()),
		// assigned_category is the category named by category_id (the
		// graph shows it as Campaign.categories).
		edge.From("assigned_category", Category.Type).Ref("campaigns").Field("category_id").Unique().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}, promotionEdges()...)
}

// Indexes of the Campaign: names identify campaigns within a project (the
// REST paths accept a name in place of the ID).
func (Campaign) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "name").Unique()}
}

// Annotations of the Campaign.
func (Campaign) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entgql.QueryField(),
		entgql.RelayConnection(),
		entgql.MultiOrder(),
	}
}

// Hooks of the Campaign enforce the join_once rule of the interface on every
// write: always false for STANDALONE campaigns, always true for loyalty
// programs, whatever the caller sent.
func (Campaign) Hooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if m.Op().Is(ent.OpCreate) || m.Op().Is(ent.OpUpdateOne) {
					if err := forceJoinOnce(ctx, m); err != nil {
						return nil, err
					}
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

func forceJoinOnce(ctx context.Context, m ent.Mutation) error {
	kind, ok := m.Field("campaign_type")
	typ, _ := m.Field("type")
	if !ok {
		// An update: the types are immutable, so read the stored ones.
		var err error
		if kind, err = m.OldField(ctx, "campaign_type"); err != nil {
			return fmt.Errorf("campaign hook: reading campaign_type: %w", err)
		}
		if typ, err = m.OldField(ctx, "type"); err != nil {
			return fmt.Errorf("campaign hook: reading type: %w", err)
		}
	}
	switch {
	case fmt.Sprint(kind) == "LOYALTY_PROGRAM":
		return m.SetField("join_once", true)
	case fmt.Sprint(typ) == "STANDALONE":
		return m.SetField("join_once", false)
	}
	return nil
}

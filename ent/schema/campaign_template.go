package schema

import (
	"encoding/json"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// CampaignTemplate is a stored campaign set-up (graph/template): the
// configuration of a discount or gift campaign, or of a promotion tier,
// from which new campaigns and tiers are made. Its name is unique in its
// project.
type CampaignTemplate struct{ ent.Schema }

// Mixin of the CampaignTemplate.
func (CampaignTemplate) Mixin() []ent.Mixin {
	return []ent.Mixin{
		IDMixin{Prefix: pulid.PrefixCampaignTemplate, Length: 16, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{},
	}
}

// Fields of the CampaignTemplate.
func (CampaignTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(1000),
		field.String("description").Optional().Nillable().MaxLen(5000),
		// campaign_type is DISCOUNT_COUPONS or GIFT_VOUCHERS (a tier's
		// template is a DISCOUNT_COUPONS one).
		field.String("campaign_type").NotEmpty().MaxLen(40),
		// setup is the snapshot, written and read by graph/template only.
		field.JSON("setup", json.RawMessage{}),
	}
}

// Indexes of the CampaignTemplate: one name per project.
func (CampaignTemplate) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "name").Unique()}
}

// Annotations of the CampaignTemplate: GraphQL types are hand-written
// (graph/schema/template.graphqls).
func (CampaignTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

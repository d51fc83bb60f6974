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

// ReferralHolder (rh_) is a referee assigned to a referral code
// (/v1/referrals[/{campaignId}]/members/{memberId}/holders). The code's
// referrer is its publication's holder (voucher.holder_id) and is not
// stored here; graph/referral shows it as the list's REFERRER entry.
type ReferralHolder struct{ ent.Schema }

// Mixin of the ReferralHolder.
func (ReferralHolder) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixReferralHolder, Length: 24}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the ReferralHolder.
func (ReferralHolder) Fields() []ent.Field {
	return []ent.Field{
		field.String("voucher_id").Immutable(),
		field.String("campaign_id").Immutable(),
		field.String("customer_id").Immutable(),
		field.JSON("metadata", map[string]any{}).Optional(),
	}
}

// Indexes of the ReferralHolder: a customer is a referee of a code once;
// the holders of a code page by (created_at, id).
func (ReferralHolder) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "voucher_id", "customer_id").Unique(),
		index.Fields("project_id", "voucher_id", "created_at", "id"),
	}
}

// Annotations of the ReferralHolder.
func (ReferralHolder) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("referral_holders"), entgql.Skip(entgql.SkipAll)}
}

package template

import (
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/campaign"
)

// apply puts the request's settings over the template's campaign create
// (the campaign use case checks them all).
func (in CampaignSetupInput) apply(c *campaign.CreateCampaignInput) {
	c.Name = in.Name
	set(&c.Description, in.Description)
	if in.Type != nil {
		typ := entcampaign.Type(*in.Type)
		c.Type = &typ
	}
	set(&c.JoinOnce, in.JoinOnce)
	set(&c.AutoJoin, in.AutoJoin)
	set(&c.UseVoucherMetadataSchema, in.UseVoucherMetadataSchema)
	set(&c.VouchersCount, in.VouchersCount)
	set(&c.StartDate, in.StartDate)
	set(&c.ExpirationDate, in.ExpirationDate)
	set(&c.ValidityTimeframe, in.ValidityTimeframe)
	set(&c.ValidityHours, in.ValidityHours)
	set(&c.ActivityDurationAfterPublishing, in.ActivityDurationAfterPublishing)
	set(&c.CategoryID, in.CategoryID)
	set(&c.Category, in.Category)
	if in.ValidityDayOfWeek != nil {
		c.ValidityDayOfWeek = in.ValidityDayOfWeek
	}
	if in.Metadata != nil {
		c.Metadata = in.Metadata
	}
	if v := in.Voucher; v != nil && (v.CodeConfig != nil || v.Redemption != nil) {
		profile := jsonfield.VoucherProfile{}
		if c.Voucher != nil {
			profile = *c.Voucher
		}
		if v.CodeConfig != nil {
			profile.CodeConfig = v.CodeConfig
		}
		if v.Redemption != nil {
			profile.Redemption = v.Redemption
		}
		c.Voucher = &profile
	}
}

// apply puts the request's settings over the template's tier.
func (in TierSetupInput) apply(t *campaign.PromotionTierInput) {
	name := in.Name
	t.Name = &name
	set(&t.Banner, in.Banner)
	set(&t.Hierarchy, in.Hierarchy)
	set(&t.Active, in.Active)
	set(&t.StartDate, in.StartDate)
	set(&t.ExpirationDate, in.ExpirationDate)
	set(&t.ValidityTimeframe, in.ValidityTimeframe)
	set(&t.ValidityHours, in.ValidityHours)
	set(&t.Category, in.Category)
	set(&t.CategoryID, in.CategoryID)
	if in.ValidityDayOfWeek != nil {
		t.ValidityDayOfWeek = in.ValidityDayOfWeek
	}
	if in.Metadata != nil {
		t.Metadata = in.Metadata
	}
}

// set replaces *dst with v when the request gave one.
func set[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

package campaign

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// CreateCampaign validates input, fills the defaults of the real service and
// stores the campaign in the caller's project.
func CreateCampaign(ctx context.Context, in CreateCampaignInput) (*ent.Campaign, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Name) == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if err := bin.CheckFree(ctx, bin.TypeCampaign, in.Name); err != nil {
		return nil, err
	}
	kind, typ, err := campaignKinds(in)
	if err != nil {
		return nil, err
	}
	profile, err := normalizeVoucherProfile(kind, in.Voucher)
	if err != nil {
		return nil, err
	}
	if err := (validity{
		StartDate: in.StartDate, ExpirationDate: in.ExpirationDate,
		Timeframe: in.ValidityTimeframe, DaysOfWeek: in.ValidityDayOfWeek, Hours: in.ValidityHours,
	}).validate(); err != nil {
		return nil, err
	}
	if d := in.ActivityDurationAfterPublishing; d != nil && !validDuration(*d) {
		return nil, apperr.InvalidPayload("Property .activity_duration_after_publishing must be an ISO 8601 duration (e.g. P24D), got %q", *d)
	}
	if n := in.VouchersCount; n != nil && (*n < 0 || *n > MaxVouchersPerRequest || (*n > 1 && typ == campaign.TypeSTANDALONE)) {
		limit := MaxVouchersPerRequest
		if typ == campaign.TypeSTANDALONE {
			limit = 1
		}
		return nil, apperr.InvalidPayload("Property .vouchers_count must be between 0 and %d for %s campaigns, got %d", limit, typ, *n)
	}
	metadata := in.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	create := c.Campaign.Create().
		SetName(in.Name).
		SetNillableDescription(in.Description).
		SetCampaignType(kind).
		SetType(typ).
		SetNillableAutoJoin(in.AutoJoin).
		SetNillableJoinOnce(in.JoinOnce).
		SetNillableUseVoucherMetadataSchema(in.UseVoucherMetadataSchema).
		SetNillableProtected(in.Protected).
		SetVoucher(profile).
		SetNillableActivityDurationAfterPublishing(in.ActivityDurationAfterPublishing).
		SetNillableStartDate(utcPtr(in.StartDate)).
		SetNillableExpirationDate(utcPtr(in.ExpirationDate)).
		SetMetadata(metadata)
	if in.ReferralProgram != nil {
		if err := checkReferralProgram(ctx, in.ReferralProgram); err != nil { // referral_tiers.go
			return nil, err
		}
		create.SetReferralProgram(in.ReferralProgram)
	}
	if err := categoryOnCreate(ctx, create, in.Category, in.CategoryID); err != nil {
		return nil, err
	}
	if in.ValidityTimeframe != nil {
		create.SetValidityTimeframe(in.ValidityTimeframe)
	}
	if in.ValidityDayOfWeek != nil {
		create.SetValidityDayOfWeek(in.ValidityDayOfWeek)
	}
	if in.ValidityHours != nil {
		create.SetValidityHours(in.ValidityHours)
	}
	if err := checkRuleCount(in.ValidationRules, 1); err != nil {
		return nil, err
	}
	if err := checkPromotion(kind, in.Promotion); err != nil {
		return nil, err
	}
	created, err := create.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Duplicate("campaign", fmt.Sprintf("A campaign named %q already exists", in.Name))
	}
	if err != nil {
		return nil, fmt.Errorf("creating campaign: %w", err)
	}
	if _, err := AssignRules(ctx, validationruleassignment.RelatedObjectTypeCampaign, created.ID, in.ValidationRules); err != nil {
		return nil, err
	}
	if err := emitCampaign(ctx, webhook.EventCampaignCreated, created); err != nil {
		return nil, err
	}
	if in.Promotion != nil {
		if err := CreatePromotionTiers(ctx, created, in.Promotion.Tiers); err != nil {
			return nil, err
		}
	}
	if in.VouchersCount == nil || *in.VouchersCount == 0 {
		return created, nil
	}
	return generateInitialVouchers(ctx, created, *in.VouchersCount)
}

// generateInitialVouchers makes a new campaign's first vouchers: the single
// code of a STANDALONE campaign right away, otherwise a background job
// (the campaign reports IN_PROGRESS until the job is done).
func generateInitialVouchers(ctx context.Context, cmp *ent.Campaign, count int) (*ent.Campaign, error) {
	tmpl, cc, err := VoucherTemplate(cmp, &AddVouchersInput{})
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if cmp.Type == campaign.TypeSTANDALONE {
		if _, err := createVoucher(ctx, cmp, tmpl, cc, nil); err != nil {
			return nil, err
		}
	} else {
		if _, err := enqueueGeneration(ctx, cmp, count, cc, tmpl); err != nil {
			return nil, err
		}
		if err := c.Campaign.UpdateOneID(cmp.ID).SetCreationStatus(campaign.CreationStatusIN_PROGRESS).Exec(ctx); err != nil {
			return nil, fmt.Errorf("marking campaign creation: %w", err)
		}
	}
	return c.Campaign.Get(ctx, cmp.ID)
}

// campaignKinds resolves campaign_type (explicit, else from voucher.type,
// else DISCOUNT_COUPONS) and type (default AUTO_UPDATE), and checks that
// STANDALONE is only used where the real service allows it.
func campaignKinds(in CreateCampaignInput) (campaign.CampaignType, campaign.Type, error) {
	kind := campaign.CampaignTypeDISCOUNT_COUPONS
	switch {
	case in.CampaignType != nil:
		kind = *in.CampaignType
		if err := campaign.CampaignTypeValidator(kind); err != nil {
			return "", "", apperr.InvalidPayload("Property .campaign_type must be one of LOYALTY_PROGRAM, GIFT_VOUCHERS, DISCOUNT_COUPONS, PROMOTION, REFERRAL_PROGRAM, got %q", kind)
		}
	case in.Voucher != nil && in.Voucher.Type != "":
		if k, ok := campaignTypeFor[in.Voucher.Type]; ok {
			kind = k
		}
	}
	typ := campaign.TypeAUTO_UPDATE
	if in.Type != nil {
		typ = *in.Type
		if err := campaign.TypeValidator(typ); err != nil {
			return "", "", apperr.InvalidPayload("Property .type must be one of AUTO_UPDATE, STATIC, STANDALONE, got %q", typ)
		}
	}
	if typ == campaign.TypeSTANDALONE && kind != campaign.CampaignTypeDISCOUNT_COUPONS && kind != campaign.CampaignTypeGIFT_VOUCHERS {
		return "", "", apperr.InvalidPayload("Property .type STANDALONE is only allowed for DISCOUNT_COUPONS and GIFT_VOUCHERS campaigns")
	}
	return kind, typ, nil
}

// ByIDOrName finds a campaign of the caller's project by its ID or,
// failing that, by its name.
func ByIDOrName(ctx context.Context, idOrName string) (*ent.Campaign, error) {
	return findCampaign(ctx, idOrName, false)
}

// Selected is the campaign(idOrName) query: the campaign with only
// the columns the GraphQL query selects on it (collectWithoutConnections).
// Only the resolver of that field may call it: elsewhere the field being
// resolved is not the campaign.
func Selected(ctx context.Context, idOrName string) (*ent.Campaign, error) {
	return findCampaign(ctx, idOrName, true)
}

func findCampaign(ctx context.Context, idOrName string, onlySelected bool) (*ent.Campaign, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Campaign.Query().Where(campaign.Or(campaign.ID(idOrName), campaign.Name(idOrName))).Limit(2)
	if onlySelected {
		if err := fields.CollectWithoutConnections(ctx, q.CollectFields); err != nil {
			return nil, fmt.Errorf("collecting campaign fields: %w", err)
		}
	}
	found, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up campaign: %w", err)
	}
	return store.PreferExact(found, func(c *ent.Campaign) bool { return c.ID == idOrName }, "campaign", idOrName)
}

// Connection lists the caller's campaigns as a Relay connection.
func Connection(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.CampaignOrder, where *ent.CampaignWhereInput) (*ent.CampaignConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.Campaign.Query().Paginate(ctx, after, first, before, last,
		ent.WithCampaignOrder(orderBy), ent.WithCampaignFilter(where.Filter))
}

// utcPtr normalises an optional timestamp to UTC with millisecond precision,
// the precision the API shows.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Millisecond)
	return &u
}

package campaign

import (
	"context"
	"fmt"
	"net/http"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/vouchercode"
	"github.com/promoengine/promoengine/graph/webhook"
)

// MaxVouchersPerRequest bounds one bulk generation request.
const MaxVouchersPerRequest = 5_000_000

// maxCodeLen is the longest explicit code accepted.
const maxCodeLen = 300

// AddVoucher adds one voucher to a campaign: the explicit code, or a new
// code from the (request's or campaign's) code configuration.
func AddVoucher(ctx context.Context, campaignIDOrName string, in *AddVouchersInput) (*ent.Voucher, error) {
	if in == nil {
		in = &AddVouchersInput{}
	}
	cmp, tmpl, cc, err := prepareVouchers(ctx, campaignIDOrName, in)
	if err != nil {
		return nil, err
	}
	return createVoucher(ctx, cmp, tmpl, cc, in.Code)
}

// createVoucher stores one voucher of cmp with the explicit code, or with a
// new random code from cc.
func createVoucher(ctx context.Context, cmp *ent.Campaign, tmpl *jsonfield.VoucherTemplate, cc *jsonfield.CodeConfig, code *string) (*ent.Voucher, error) {
	return insertNewCode(ctx, code, cc, func(code string) (*ent.Voucher, error) { return insertOne(ctx, cmp, tmpl, code) })
}

// insertNewCode inserts one voucher with the explicit code, or with random
// codes from cc until one is unused.
func insertNewCode(ctx context.Context, code *string, cc *jsonfield.CodeConfig, insert func(code string) (*ent.Voucher, error)) (*ent.Voucher, error) {
	if code != nil {
		if err := validateCode(*code); err != nil {
			return nil, err
		}
		if err := bin.CheckFree(ctx, bin.TypeVoucher, *code); err != nil {
			return nil, err
		}
		return insert(*code)
	}
	gen, err := CodeGenerator(cc)
	if err != nil {
		return nil, err
	}
	if err := checkCodeSpace(ctx, gen, 1); err != nil {
		return nil, err
	}
	src := vouchercode.NewSource()
	for range 64 {
		v, err := insert(gen.Random(src))
		if e, ok := apperr.As(err); ok && e.Key == "duplicate_key" {
			continue // a random collision with an existing code: draw again
		}
		return v, err
	}
	return nil, apperr.New(http.StatusBadRequest, "invalid_code_config", "Invalid code config",
		"Could not find an unused code in the code configuration's space")
}

// insertOne inserts a single voucher and reads it back; an existing code is
// a duplicate_key error.
func insertOne(ctx context.Context, cmp *ent.Campaign, tmpl *jsonfield.VoucherTemplate, code string) (*ent.Voucher, error) {
	n, err := InsertVouchers(ctx, cmp.ProjectID, &cmp.ID, tmpl, []string{code})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apperr.New(http.StatusBadRequest, "duplicate_key", "Duplicate codes", "1 voucher codes(s) already exist.")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	v, err := WithVoucherCategories(c.Voucher.Query().Where(voucher.Code(code))).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading new voucher: %w", err)
	}
	return v, emitVoucher(ctx, webhook.EventVoucherCreated, v)
}

// GenerateVouchers enqueues a durable job that adds count new vouchers to a
// campaign, after checking up front that the code space has room for them.
func GenerateVouchers(ctx context.Context, campaignIDOrName string, count int, in *AddVouchersInput) (*ent.AsyncAction, error) {
	if in == nil {
		in = &AddVouchersInput{}
	}
	if count < 1 || count > MaxVouchersPerRequest {
		return nil, apperr.InvalidQueryParams("vouchers_count must be between 1 and %d, got %d", MaxVouchersPerRequest, count)
	}
	if in.Code != nil {
		return nil, apperr.InvalidPayload("Property .code can only be given when adding a single voucher (vouchers_count 1)")
	}
	cmp, tmpl, cc, err := prepareVouchers(ctx, campaignIDOrName, in)
	if err != nil {
		return nil, err
	}
	return enqueueGeneration(ctx, cmp, count, cc, tmpl)
}

// prepareVouchers finds the campaign vouchers are added to and resolves
// what they are made from.
func prepareVouchers(ctx context.Context, campaignIDOrName string, in *AddVouchersInput) (*ent.Campaign, *jsonfield.VoucherTemplate, *jsonfield.CodeConfig, error) {
	cmp, err := campaignForVouchers(ctx, campaignIDOrName)
	if err != nil {
		return nil, nil, nil, err
	}
	tmpl, cc, err := VoucherTemplate(cmp, in)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := addedVouchersCategory(ctx, tmpl, in.Category); err != nil { // voucher_categories.go
		return nil, nil, nil, err
	}
	return cmp, tmpl, cc, nil
}

// enqueueGeneration checks the code space and stores the generation job.
func enqueueGeneration(ctx context.Context, cmp *ent.Campaign, count int, cc *jsonfield.CodeConfig, tmpl *jsonfield.VoucherTemplate) (*ent.AsyncAction, error) {
	gen, err := CodeGenerator(cc)
	if err != nil {
		return nil, err
	}
	if err := checkCodeSpace(ctx, gen, count); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	job, err := c.AsyncAction.Create().
		SetType(JobVouchersGeneration).
		SetCampaignID(cmp.ID).
		SetParams(&jsonfield.GenerationParams{Count: count, CodeConfig: *cc, Template: *tmpl}).
		SetTotal(count).
		SetNillableRequestID(RequestIDPtr(ctx)).
		Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("enqueueing voucher generation: %w", err)
	}
	if err := c.Campaign.UpdateOneID(cmp.ID).
		SetVouchersGenerationStatus(campaign.VouchersGenerationStatusIN_PROGRESS).Exec(ctx); err != nil {
		return nil, fmt.Errorf("marking campaign generation: %w", err)
	}
	return job, nil
}

// campaignForVouchers finds the campaign vouchers are added to; STANDALONE
// (generic) campaigns hold a single voucher and take no more.
func campaignForVouchers(ctx context.Context, idOrName string) (*ent.Campaign, error) {
	cmp, err := ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if cmp.Type == campaign.TypeSTANDALONE {
		return nil, apperr.New(http.StatusBadRequest, "invalid_campaign", "Invalid Campaign",
			"You can not generate vouchers for STANDALONE type campaign.")
	}
	return cmp, nil
}

// VoucherTemplate merges the campaign's voucher profile with the request's
// overrides, and returns the code configuration to generate with.
func VoucherTemplate(cmp *ent.Campaign, in *AddVouchersInput) (*jsonfield.VoucherTemplate, *jsonfield.CodeConfig, error) {
	profile := cmp.Voucher
	if profile == nil {
		p, err := normalizeVoucherProfile(cmp.CampaignType, nil)
		if err != nil {
			return nil, nil, err
		}
		profile = p
	}
	t := &jsonfield.VoucherTemplate{
		Type: profile.Type, Discount: profile.Discount, Gift: profile.Gift, LoyaltyCard: profile.LoyaltyCard,
		Category: cmp.Category, CategoryID: cmp.CategoryID,
		StartDate: cmp.StartDate, ExpirationDate: cmp.ExpirationDate,
		ValidityTimeframe: cmp.ValidityTimeframe, ValidityDayOfWeek: cmp.ValidityDayOfWeek, ValidityHours: cmp.ValidityHours,
		Active: true, AdditionalInfo: in.AdditionalInfo, Metadata: in.Metadata, IsReferralCode: profile.IsReferralCode,
	}
	if l := profile.LoyaltyCard; l != nil && l.ExpirationRules != nil {
		card := *l // the program's expiry rules stay on the program
		card.ExpirationRules = nil
		t.LoyaltyCard = &card
	}
	if profile.Redemption != nil {
		t.RedemptionQuantity = profile.Redemption.Quantity
	}
	if in.Redemption != nil {
		if q := in.Redemption.Quantity; q != nil && *q < 1 {
			return nil, nil, apperr.InvalidPayload("Property .redemption.quantity must be at least 1 (or null for unlimited)")
		}
		t.RedemptionQuantity = in.Redemption.Quantity
	}
	if in.StartDate != nil {
		t.StartDate = in.StartDate
	}
	if in.ExpirationDate != nil {
		t.ExpirationDate = in.ExpirationDate
	}
	if err := (validity{StartDate: t.StartDate, ExpirationDate: t.ExpirationDate, Timeframe: t.ValidityTimeframe,
		DaysOfWeek: t.ValidityDayOfWeek, Hours: t.ValidityHours}).validate(); err != nil {
		return nil, nil, err
	}
	path, cc := ".code_config", in.CodeConfig
	if cc == nil {
		path, cc = ".voucher.code_config", profile.CodeConfig
	}
	normalized, err := NormalizeCodeConfig(path, cc)
	if err != nil {
		return nil, nil, err
	}
	return t, normalized, nil
}

// VoucherByCodeOrID finds a voucher of the caller's project by code or, failing that, by ID.
func VoucherByCodeOrID(ctx context.Context, codeOrID string) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := WithVoucherCategories(c.Voucher.Query().Where(voucher.Or(voucher.Code(codeOrID), voucher.ID(codeOrID)))).Limit(2).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up voucher: %w", err)
	}
	return store.PreferExact(found, func(v *ent.Voucher) bool { return v.Code == codeOrID }, "voucher", codeOrID)
}

// Vouchers lists the caller's vouchers as a Relay connection.
func Vouchers(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.VoucherOrder, where *ent.VoucherWhereInput) (*ent.VoucherConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.Voucher.Query().Paginate(ctx, after, first, before, last,
		ent.WithVoucherOrder(orderBy), ent.WithVoucherFilter(where.Filter))
}

// Deref returns *s, or "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// RequestIDPtr returns the request id of ctx for job records, if any.
func RequestIDPtr(ctx context.Context) *string {
	if id := observe.RequestIDFromContext(ctx); id != "" {
		return &id
	}
	return nil
}

package loyaltyv1

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// ProgramSettings are the parts of a v1 loyalty program that a campaign
// of another type does not have: the tier qualification settings.
type ProgramSettings struct {
	// LoyaltyTiersExpiration is stored as sent (reference §5).
	LoyaltyTiersExpiration map[string]any `json:"loyalty_tiers_expiration"`
}

// CreateProgram creates a loyalty program (POST /v1/loyalties): a campaign
// of type LOYALTY_PROGRAM whose vouchers are LOYALTY_CARDs; join_once is
// forced true (a customer holds one card of a program).
func CreateProgram(ctx context.Context, in campaign.CreateCampaignInput, settings *ProgramSettings) (*ent.Campaign, error) {
	kind := entcampaign.CampaignTypeLOYALTY_PROGRAM
	if in.CampaignType != nil && *in.CampaignType != kind {
		return nil, apperr.InvalidPayload("Property .campaign_type must be LOYALTY_PROGRAM, got %q", *in.CampaignType)
	}
	if in.Voucher == nil {
		in.Voucher = &jsonfield.VoucherProfile{}
	}
	if in.Voucher.Type == "" {
		in.Voucher.Type = jsonfield.VoucherTypeLoyaltyCard
	}
	if in.Voucher.Type != jsonfield.VoucherTypeLoyaltyCard {
		return nil, apperr.InvalidPayload("Property .voucher.type must be LOYALTY_CARD, got %q", in.Voucher.Type)
	}
	if settings != nil {
		if err := checkTierSettings(settings.LoyaltyTiersExpiration); err != nil { // tier_rules.go
			return nil, err
		}
	}
	in.CampaignType = &kind
	joinOnce := true
	in.JoinOnce = &joinOnce
	in.ReferralProgram = nil
	created, err := campaign.CreateCampaign(ctx, in)
	if err != nil || settings == nil || settings.LoyaltyTiersExpiration == nil {
		return created, err
	}
	out, err := created.Update().SetLoyaltyTiersExpiration(settings.LoyaltyTiersExpiration).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing loyalty_tiers_expiration: %w", err)
	}
	return out, nil
}

// Program finds a loyalty program by ID or name: 404 for a campaign of
// another type, as for an unknown one.
func Program(ctx context.Context, idOrName string) (*ent.Campaign, error) {
	cmp, err := campaign.ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if cmp.CampaignType != entcampaign.CampaignTypeLOYALTY_PROGRAM {
		return nil, apperr.NotFound("campaign", idOrName)
	}
	return cmp, nil
}

// Programs pages the loyalty programs (GET /v1/loyalties): the campaign
// list restricted to LOYALTY_PROGRAM (one page query and one count).
func Programs(ctx context.Context, in *campaign.CampaignListInput) (*campaign.CampaignList, error) {
	q := campaign.CampaignListInput{}
	if in != nil {
		q = *in
	}
	kind := entcampaign.CampaignTypeLOYALTY_PROGRAM
	q.CampaignType = &kind
	return campaign.List(ctx, &q)
}

// ProgramUpdate is what PUT /v1/loyalties/{campaignId} may change beyond
// the campaign's fields: the cards' template (loyalty_card at the top
// level, reaching cards created from now on) and the tier settings.
// join_once cannot be turned off.
type ProgramUpdate struct {
	LoyaltyCard            *jsonfield.LoyaltyCard `json:"loyalty_card"`
	LoyaltyTiersExpiration map[string]any         `json:"loyalty_tiers_expiration"`
	// Options.RecalculateTiers re-evaluates the members' tiers after the
	// update, upgrades only (tier_recalc.go).
	Options *ProgramUpdateOptions `json:"options"`
	// Nulls are the members sent as an explicit null:
	// loyalty_tiers_expiration and loyalty_card.expiration_rules clear.
	shape.Nulls
}

// ProgramUpdateOptions are a program update's options.
type ProgramUpdateOptions struct {
	RecalculateTiers *bool `json:"recalculate_tiers"`
}

// UpdateProgram changes a loyalty program (PUT /v1/loyalties/{campaignId}).
// A member sent as null clears it: the campaign's optional fields
// (in.Nulls), loyalty_tiers_expiration and loyalty_card.expiration_rules
// (extra.Nulls).
func UpdateProgram(ctx context.Context, idOrName string, in campaign.UpdateCampaignInput, extra *ProgramUpdate) (*ent.Campaign, error) {
	cmp, err := Program(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if extra == nil {
		extra = &ProgramUpdate{}
	}
	if l := extra.LoyaltyCard; l != nil && l.Points < 0 {
		return nil, apperr.InvalidPayload("Property .loyalty_card.points must be 0 or more, got %d", l.Points)
	}
	if err := checkTierSettings(extra.LoyaltyTiersExpiration); err != nil { // tier_rules.go
		return nil, err
	}
	in.JoinOnce = nil
	out, err := updateProgram(ctx, cmp, in, extra)
	if err != nil {
		return nil, err
	}
	if o := extra.Options; o != nil && o.RecalculateTiers != nil && *o.RecalculateTiers {
		if err := recalculateTiers(ctx, out); err != nil { // tier_recalc.go
			return nil, err
		}
	}
	return out, nil
}

// updateProgram writes the update of the program cmp.
func updateProgram(ctx context.Context, cmp *ent.Campaign, in campaign.UpdateCampaignInput, extra *ProgramUpdate) (*ent.Campaign, error) {
	out, err := campaign.UpdateCampaign(ctx, cmp.ID, in)
	if err != nil {
		return nil, err
	}
	clearsExpiration := extra.IsNull("loyalty_tiers_expiration")
	clearsCardRules := extra.IsNull("loyalty_card.expiration_rules")
	if extra.LoyaltyCard == nil && extra.LoyaltyTiersExpiration == nil && !clearsExpiration && !clearsCardRules {
		return out, nil
	}
	upd := out.Update()
	if l := extra.LoyaltyCard; l != nil {
		profile := jsonfield.VoucherProfile{Type: jsonfield.VoucherTypeLoyaltyCard}
		if out.Voucher != nil {
			profile = *out.Voucher
		}
		card := jsonfield.LoyaltyCard{Points: l.Points, Balance: l.Points, ExpirationRules: l.ExpirationRules}
		if card.ExpirationRules == nil && profile.LoyaltyCard != nil && !clearsCardRules {
			card.ExpirationRules = profile.LoyaltyCard.ExpirationRules
		}
		profile.LoyaltyCard = &card
		upd.SetVoucher(&profile)
	}
	if extra.LoyaltyTiersExpiration != nil {
		upd.SetLoyaltyTiersExpiration(extra.LoyaltyTiersExpiration)
	}
	if clearsExpiration {
		upd.ClearLoyaltyTiersExpiration()
	}
	if clearsCardRules && extra.LoyaltyCard == nil {
		clearCardExpirationRules(upd, out)
	}
	if out, err = upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating loyalty program: %w", err)
	}
	return out, nil
}

// DeleteProgram schedules the deletion of a loyalty program and its cards
// (DELETE /v1/loyalties/{campaignId}[?force]); the campaign deletion's job.
// Without force=true the program goes to the trash bin first and its name
// stays reserved, as every campaign delete (docs/trash-bin.md).
func DeleteProgram(ctx context.Context, idOrName string, force *bool) (*ent.AsyncAction, error) {
	cmp, err := Program(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	return campaign.DeleteCampaign(ctx, cmp.ID, force)
}

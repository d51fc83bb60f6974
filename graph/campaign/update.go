package campaign

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/webhook"
)

// UpdateCampaignInput is the input of the updateCampaign mutation and the
// body of REST PUT /v1/campaigns/{campaignId}. Only the properties given
// change; an explicit null clears an optional property (Nulls) and is
// refused on type, auto_join and join_once. A campaign's name, kind and
// voucher template (discount, gift, code pattern) stay as created: its
// Vouchers were made from them.
type UpdateCampaignInput struct {
	Description                     *string                      `json:"description"`
	Type                            *campaign.Type               `json:"type"`
	AutoJoin                        *bool                        `json:"auto_join"`
	JoinOnce                        *bool                        `json:"join_once"`
	StartDate                       *time.Time                   `json:"start_date"`
	ExpirationDate                  *time.Time                   `json:"expiration_date"`
	ValidityTimeframe               *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int                        `json:"validity_day_of_week"`
	ValidityHours                   *jsonfield.ValidityHours     `json:"validity_hours"`
	ActivityDurationAfterPublishing *string                      `json:"activity_duration_after_publishing"`
	Category                        *string                      `json:"category"`
	CategoryID                      *string                      `json:"category_id"`
	// Metadata is merged into the campaign's metadata; UnsetMetadataFields
	// are then removed from it.
	Metadata            map[string]any `json:"metadata"`
	UnsetMetadataFields []string       `json:"unset_metadata_fields"`
	// Nulls are the members sent as an explicit null: each clears its
	// field (validity rules, description, activity duration, metadata,
	// category).
	shape.Nulls
}

// UpdateCampaign changes what in gives of a campaign and returns it.
func UpdateCampaign(ctx context.Context, idOrName string, in UpdateCampaignInput) (*ent.Campaign, error) {
	if err := in.RefuseNull("type", "auto_join", "join_once"); err != nil {
		return nil, err
	}
	cmp, err := ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	upd := cmp.Update()
	current := validity{StartDate: cmp.StartDate, ExpirationDate: cmp.ExpirationDate, Timeframe: cmp.ValidityTimeframe,
		DaysOfWeek: cmp.ValidityDayOfWeek, Hours: cmp.ValidityHours}
	change := validity{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate, Timeframe: in.ValidityTimeframe,
		DaysOfWeek: in.ValidityDayOfWeek, Hours: in.ValidityHours}
	if err := updateValidity(upd, current, change, in.Nulls); err != nil {
		return nil, err
	}
	if in.Type != nil && *in.Type != cmp.Type {
		movable := func(t campaign.Type) bool { return t == campaign.TypeAUTO_UPDATE || t == campaign.TypeSTATIC }
		if !movable(cmp.Type) || !movable(*in.Type) {
			return nil, apperr.InvalidPayload("Property .type can only change between AUTO_UPDATE and STATIC (this campaign is %s)", cmp.Type)
		}
		upd.SetType(*in.Type)
	}
	if d := in.ActivityDurationAfterPublishing; d != nil && !validDuration(*d) {
		return nil, apperr.InvalidPayload("Property .activity_duration_after_publishing must be an ISO 8601 duration (e.g. P24D), got %q", *d)
	}
	upd.SetNillableDescription(in.Description).SetNillableAutoJoin(in.AutoJoin).SetNillableJoinOnce(in.JoinOnce).
		SetNillableActivityDurationAfterPublishing(in.ActivityDurationAfterPublishing)
	if err := categoryOnUpdate(ctx, upd, in.Category, in.CategoryID); err != nil {
		return nil, err
	}
	if in.Metadata != nil || in.UnsetMetadataFields != nil {
		md := map[string]any{}
		for k, v := range cmp.Metadata {
			md[k] = v
		}
		for k, v := range in.Metadata {
			md[k] = v
		}
		for _, k := range in.UnsetMetadataFields {
			delete(md, k)
		}
		upd.SetMetadata(md)
	}
	clearCampaignFields(upd, in.Nulls)
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating campaign: %w", err)
	}
	return out, emitCampaign(ctx, webhook.EventCampaignUpdated, out)
}

// clearCampaignFields clears the campaign's optional fields the request
// set to null (the validity rules are cleared by updateValidity).
func clearCampaignFields(upd *ent.CampaignUpdateOne, nulls shape.Nulls) {
	if nulls.IsNull("description") {
		upd.ClearDescription()
	}
	if nulls.IsNull("activity_duration_after_publishing") {
		upd.ClearActivityDurationAfterPublishing()
	}
	if nulls.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if nulls.IsNull("category") || nulls.IsNull("category_id") {
		upd.ClearCategory().ClearCategoryID()
	}
}

// SetCampaignActive enables or disables a campaign: a disabled campaign's
// Vouchers fail validation and redemption (voucher_disabled); publication
// does not look at the campaign's state. Setting the state a campaign
// already has changes nothing.
func SetCampaignActive(ctx context.Context, idOrName string, active bool) (*ent.Campaign, error) {
	cmp, err := ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if cmp.Active == active {
		return cmp, nil
	}
	out, err := cmp.Update().SetActive(active).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("changing campaign state: %w", err)
	}
	return out, emitCampaign(ctx, map[bool]string{true: webhook.EventCampaignEnabled, false: webhook.EventCampaignDisabled}[active], out)
}

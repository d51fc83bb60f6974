package campaign

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// UpdateVoucherInput is the input of the updateVoucher mutation and the body
// of REST PUT /v1/vouchers/{code}. Only the properties given change; an
// explicit null clears an optional property (Nulls). The code, type and campaign stay; a gift
// card's balance changes through the balance endpoint, not here.
type UpdateVoucherInput struct {
	// Category (a name, found or created) or CategoryID (a category of the
	// project, 404 otherwise) sets the voucher's category; "" clears it.
	Category          *string                      `json:"category"`
	CategoryID        *string                      `json:"category_id"`
	StartDate         *time.Time                   `json:"start_date"`
	ExpirationDate    *time.Time                   `json:"expiration_date"`
	ValidityTimeframe *jsonfield.ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek []int                        `json:"validity_day_of_week"`
	ValidityHours     *jsonfield.ValidityHours     `json:"validity_hours"`
	Active            *bool                        `json:"active"`
	AdditionalInfo    *string                      `json:"additional_info"`
	// Metadata replaces the voucher's metadata.
	Metadata map[string]any `json:"metadata"`
	// Redemption sets how many times the code may be redeemed (not below
	// what it has been redeemed already).
	Redemption *VoucherRedemptionLimitInput `json:"redemption"`
	// Nulls are the members sent as an explicit null: each clears its
	// field (validity rules, additional_info, metadata, category;
	// redemption or redemption.quantity: no limit). active cannot be null.
	shape.Nulls
}

// VoucherRedemptionLimitInput is an update's redemption limit.
type VoucherRedemptionLimitInput struct {
	Quantity *int `json:"quantity"`
}

// UpdateVoucher changes what in gives of a voucher and returns it.
func UpdateVoucher(ctx context.Context, codeOrID string, in UpdateVoucherInput) (*ent.Voucher, error) {
	if err := in.RefuseNull("active"); err != nil {
		return nil, err
	}
	v, err := VoucherByCodeOrID(ctx, codeOrID)
	if err != nil {
		return nil, err
	}
	upd := v.Update()
	current := validity{StartDate: v.StartDate, ExpirationDate: v.ExpirationDate, Timeframe: v.ValidityTimeframe,
		DaysOfWeek: v.ValidityDayOfWeek, Hours: v.ValidityHours}
	change := validity{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate, Timeframe: in.ValidityTimeframe,
		DaysOfWeek: in.ValidityDayOfWeek, Hours: in.ValidityHours}
	if err := updateValidity(upd, current, change, in.Nulls); err != nil {
		return nil, err
	}
	if r := in.Redemption; r != nil && r.Quantity != nil {
		if *r.Quantity < 1 || *r.Quantity < v.RedeemedQuantity {
			return nil, apperr.InvalidPayload("Property .redemption.quantity must be at least 1 and not below the %d redemption(s) made, got %d",
				v.RedeemedQuantity, *r.Quantity)
		}
		upd.SetRedemptionQuantity(*r.Quantity)
	}
	if in.IsNull("redemption") || in.IsNull("redemption.quantity") {
		upd.ClearRedemptionQuantity()
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if err := categoryOnUpdate(ctx, upd, in.Category, in.CategoryID); err != nil {
		return nil, err
	}
	upd.SetNillableActive(in.Active).SetNillableAdditionalInfo(in.AdditionalInfo)
	if in.IsNull("additional_info") {
		upd.ClearAdditionalInfo()
	}
	if in.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
	if in.IsNull("category") || in.IsNull("category_id") {
		upd.ClearCategory().ClearCategoryID()
	}
	if _, err := upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating voucher: %w", err)
	}
	after, err := VoucherByCodeOrID(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	return after, emitVoucherChange(ctx, v, after, in)
}

// SetVoucherActive enables or disables a voucher (idempotent); a disabled
// code fails validation and redemption with voucher_disabled and is not
// published.
func SetVoucherActive(ctx context.Context, codeOrID string, active bool) (*ent.Voucher, error) {
	return UpdateVoucher(ctx, codeOrID, UpdateVoucherInput{Active: &active})
}

// DeleteVoucher deletes a voucher with its redemptions, transactions,
// session locks, rule assignments and publication links, and returns its
// id. Without force=true the voucher is moved to the trash bin: a bin
// entry keeps its code reserved (docs/trash-bin.md).
func DeleteVoucher(ctx context.Context, codeOrID string, force *bool) (string, error) {
	v, err := VoucherByCodeOrID(ctx, codeOrID)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if err := emitVoucher(ctx, webhook.EventVoucherDeleted, v); err != nil {
		return "", err
	}
	if !bin.Skip(force) {
		code := v.Code
		assignments, err := c.ValidationRuleAssignment.Query().Where(validationruleassignment.RelatedObjectID(v.ID)).All(ctx)
		if err != nil {
			return "", fmt.Errorf("reading the voucher's rule assignments: %w", err)
		}
		if err := bin.Move(ctx, bin.Resource{Type: bin.TypeVoucher, ID: v.ID, Name: v.Code, Reserved: &code,
			ParentID: v.CampaignID, Snapshot: &bin.Snapshot{Voucher: v, Assignments: assignments}}); err != nil {
			return "", err
		}
	}
	if err := deleteVouchers(ctx, c, []string{v.ID}); err != nil {
		return "", err
	}
	if v.CampaignID != nil {
		if err := c.Campaign.Update().Where(campaign.ID(*v.CampaignID)).AddVouchersCount(-1).Exec(ctx); err != nil {
			return "", fmt.Errorf("counting the campaign's vouchers: %w", err)
		}
	}
	return v.ID, nil
}

package benefit

import (
	"context"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Validation of the detail objects incentives and rewards share. path is
// the property's name in the request (e.g. "material").

func validateMaterial(path string, m *jsonfield.MaterialDetail) error {
	switch {
	case m.Product == nil && m.SKU == nil:
		return apperr.InvalidPayload("Property .%s must have exactly one of 'product' or 'sku', got neither", path)
	case m.Product != nil && m.SKU != nil:
		return apperr.InvalidPayload("Property .%s must have exactly one of 'product' or 'sku', got both", path)
	case m.Product != nil && m.Product.ID == "":
		return apperr.InvalidPayload("Property .%s.product must have required property 'id'", path)
	case m.SKU != nil && (m.SKU.ID == "" || m.SKU.ProductID == ""):
		return apperr.InvalidPayload("Property .%s.sku must have required properties 'id' and 'product_id'", path)
	}
	if m.Type != nil && *m.Type != "PRODUCT" && *m.Type != "SKU" {
		return apperr.InvalidPayload("Property .%s.type must be one of PRODUCT, SKU, got %q", path, *m.Type)
	}
	return nil
}

// validateDigital checks the shape and that the named campaign exists in
// the project (404 otherwise).
func validateDigital(ctx context.Context, path string, d *jsonfield.DigitalDetail) error {
	var campaignID string
	switch {
	case d.DiscountCoupons == nil && d.GiftVouchers == nil:
		return apperr.InvalidPayload("Property .%s must have exactly one of 'discount_coupons' or 'gift_vouchers', got neither", path)
	case d.DiscountCoupons != nil && d.GiftVouchers != nil:
		return apperr.InvalidPayload("Property .%s must have exactly one of 'discount_coupons' or 'gift_vouchers', got both", path)
	case d.DiscountCoupons != nil:
		if d.DiscountCoupons.CampaignID == "" {
			return apperr.InvalidPayload("Property .%s.discount_coupons must have required property 'campaign_id'", path)
		}
		campaignID = d.DiscountCoupons.CampaignID
	default:
		if d.GiftVouchers.CampaignID == "" {
			return apperr.InvalidPayload("Property .%s.gift_vouchers must have required property 'campaign_id'", path)
		}
		if d.GiftVouchers.Balance != nil && *d.GiftVouchers.Balance < 0 {
			return apperr.InvalidPayload("Property .%s.gift_vouchers.balance must be >= 0", path)
		}
		campaignID = d.GiftVouchers.CampaignID
	}
	if d.Type != nil && *d.Type != "DISCOUNT_COUPONS" && *d.Type != "GIFT_VOUCHERS" {
		return apperr.InvalidPayload("Property .%s.type must be one of DISCOUNT_COUPONS, GIFT_VOUCHERS, got %q", path, *d.Type)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	_, err = c.Campaign.Get(ctx, campaignID)
	return loyaltybase.NotFound(err, "campaign", campaignID)
}

// requireMaterial checks that a material detail's product, or its SKU of
// that product, exists in the project: 404 for an unknown product or SKU,
// 400 when the SKU belongs to another product than product_id.
func requireMaterial(ctx context.Context, path string, m *jsonfield.MaterialDetail) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if m.Product != nil {
		_, err := c.Product.Get(ctx, m.Product.ID)
		return loyaltybase.NotFound(err, "product", m.Product.ID)
	}
	sku, err := c.Sku.Get(ctx, m.SKU.ID)
	if err := loyaltybase.NotFound(err, "sku", m.SKU.ID); err != nil {
		return err
	}
	if sku.ProductID != m.SKU.ProductID {
		return apperr.InvalidPayload("Property .%s.sku.product_id: SKU %s belongs to product %s, not %s", path, m.SKU.ID, sku.ProductID, m.SKU.ProductID)
	}
	return nil
}

package campaign

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
)

// What one imported row makes (campaign_import.go): the campaign's voucher
// settings with the row's own values, checked.

// template is the voucher a row makes: the campaign's settings with the
// row's own values, checked.
func (r importRow) template(ctx context.Context, base *jsonfield.VoucherTemplate, categories map[string]*ent.Category) (*jsonfield.VoucherTemplate, error) {
	t := *base
	if n := len([]rune(strOr(r.Code))); n > maxCodeLength {
		return nil, apperr.InvalidPayload("The code must be at most %d characters, got %d", maxCodeLength, n)
	}
	if r.Active != nil {
		t.Active = *r.Active
	}
	t.AdditionalInfo, t.Metadata = r.AdditionalInfo, r.Metadata
	if r.Redemption != nil {
		if q := r.Redemption.Quantity; q != nil && *q < 1 {
			return nil, apperr.InvalidPayload("redemption.quantity must be at least 1, got %d", *q)
		}
		t.RedemptionQuantity = r.Redemption.Quantity
	}
	if q := r.RedeemedQuantity; q != nil {
		if *q < 0 || t.RedemptionQuantity != nil && *q > *t.RedemptionQuantity {
			return nil, apperr.InvalidPayload("Redeemed Quantity must be between 0 and the redemption quantity, got %d", *q)
		}
		t.RedeemedQuantity = *q
	}
	if err := r.value(&t); err != nil {
		return nil, err
	}
	if r.Category != nil && strings.TrimSpace(*r.Category) != "" {
		name := strings.TrimSpace(*r.Category)
		cat, ok := categories[name]
		if !ok {
			var err error
			if cat, _, err = campaignCategory(ctx, &name, nil); err != nil {
				return nil, err
			}
			categories[name] = cat
		}
		t.Category, t.CategoryID = categoryNameID(cat)
	}
	return &t, nil
}

// value applies a gift card's amount or a loyalty card's points.
func (r importRow) value(t *jsonfield.VoucherTemplate) error {
	if g := r.Gift; g != nil && g.Amount != nil {
		if t.Type != jsonfield.VoucherTypeGift {
			return apperr.InvalidPayload("gift.amount is only for gift cards (the campaign makes %s vouchers)", t.Type)
		}
		spent := int64(0)
		if g.RedeemedAmount != nil {
			spent = *g.RedeemedAmount
		}
		if *g.Amount < 0 || *g.Amount > maxImportedValue || spent < 0 || spent > *g.Amount {
			return apperr.InvalidPayload("gift.amount must be 0 to %d and the redeemed amount 0 to the amount", int64(maxImportedValue))
		}
		gift := jsonfield.Gift{Amount: *g.Amount, SubtractedAmount: spent, Balance: *g.Amount - spent}
		if t.Gift != nil {
			gift.Effect = t.Gift.Effect
		}
		t.Gift = &gift
	}
	if l := r.LoyaltyCard; l != nil && l.Points != nil {
		if t.Type != jsonfield.VoucherTypeLoyaltyCard {
			return apperr.InvalidPayload("loyalty_card.points is only for loyalty cards (the campaign makes %s vouchers)", t.Type)
		}
		if *l.Points < 0 || *l.Points > maxImportedValue {
			return apperr.InvalidPayload("loyalty_card.points must be 0 to %d", int64(maxImportedValue))
		}
		t.LoyaltyCard = &jsonfield.LoyaltyCard{Points: *l.Points, Balance: *l.Points}
	}
	return nil
}

func strOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func firstNonEmpty(vals ...string) string {
	if i := slices.IndexFunc(vals, func(v string) bool { return v != "" }); i >= 0 {
		return vals[i]
	}
	return ""
}

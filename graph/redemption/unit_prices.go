package redemption

import (
	"context"
	"strings"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/catalog"
	"github.com/promoengine/promoengine/graph/discount"
)

// UNIT discounts take the price of their free units from the request's
// line, else the catalogue (the SKU's price, else its product's), else
// none (free shipping: a line without price or amount; reference §7.5).

// loadUnitPrices reads the catalogue prices of the UNIT discounts' unit
// types (one look-up for the request, only when there is a UNIT discount).
func (e *evaluation) loadUnitPrices(ctx context.Context) error {
	var types []string
	for _, s := range e.states {
		types = append(types, unitTypes(s.storedDiscount())...)
	}
	if len(types) == 0 {
		return nil
	}
	refs := make([]catalog.CartRef, len(types))
	for i, t := range types {
		if strings.HasPrefix(t, "sku_") {
			refs[i].SKU = t
		} else {
			refs[i].Product = t
		}
	}
	lines, err := catalog.ResolveCart(ctx, refs, nil)
	if err != nil {
		return err
	}
	prices := map[string]int64{}
	for i, l := range lines {
		if l.Price > 0 {
			prices[types[i]] = l.Price
		}
	}
	for _, s := range e.states {
		s.unitPrices = prices
	}
	return nil
}

// storedDiscount is the discount definition of s's voucher or tier (nil: none).
func (s *redeemableState) storedDiscount() *jsonfield.Discount {
	switch {
	case s.tier != nil:
		return s.tier.Discount
	case s.voucher != nil && s.voucher.Type == jsonfield.VoucherTypeDiscount:
		return s.voucher.Discount
	}
	return nil
}

// unitTypes lists a UNIT discount's unit types.
func unitTypes(d *jsonfield.Discount) []string {
	if d == nil || d.Type != jsonfield.DiscountTypeUnit {
		return nil
	}
	var out []string
	if d.UnitType != nil && *d.UnitType != "" {
		out = append(out, *d.UnitType)
	}
	for _, u := range d.Units {
		if u.UnitType != nil && *u.UnitType != "" {
			out = append(out, *u.UnitType)
		}
	}
	return out
}

// withUnitPrices fills a UNIT discount's catalogue prices.
func (s *redeemableState) withUnitPrices(d discount.Discount) discount.Discount {
	if d.Type != discount.TypeUnit || len(s.unitPrices) == 0 {
		return d
	}
	if d.UnitPrice == 0 {
		d.UnitPrice = s.unitPrices[d.UnitType]
	}
	units := make([]discount.Unit, len(d.Units))
	for i, u := range d.Units {
		if u.Price == 0 {
			u.Price = s.unitPrices[u.UnitType]
		}
		units[i] = u
	}
	d.Units = units
	return d
}

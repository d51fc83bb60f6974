package loyaltyv1

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/graph/catalog"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// The ORDER_ITEMS_* calculations of order.paid rules (reference
// "Earning rules"): a proportion `{every, points, object, id}` over the
// order's lines that match object/id — a product (its id or source_id),
// a SKU (the same) or a product collection holding the line's product or
// SKU (the catalogue is read once per order when a rule names a product or
// a collection: withCatalog); without object every line counts.
//   - ORDER_ITEMS_AMOUNT: the lines' amount before discounts (price ×
//     quantity when a line has no amount);
//   - ORDER_ITEMS_SUBTOTAL_AMOUNT: after the line's discounts (its
//     subtotal_amount, else amount − discount_amount);
//   - ORDER_ITEMS_QUANTITY: the lines' units.

// itemsValue is the calculation's value over the order's lines: items as
// the rules read them, lines as stored (same order).
func (p *proportion) itemsValue(calculation string, items []rules.Item, lines []map[string]any) int64 {
	var sum int64
	for i, it := range items {
		if !p.counts(it) {
			continue
		}
		amount := it.Amount
		if amount == 0 {
			amount = it.Price * it.Quantity
		}
		switch calculation {
		case "ORDER_ITEMS_AMOUNT":
			sum += amount
		case "ORDER_ITEMS_SUBTOTAL_AMOUNT":
			if i >= len(lines) {
				sum += amount
			} else if sub, ok := lines[i]["subtotal_amount"]; ok {
				sum += rules.JSONInt64(sub)
			} else {
				sum += amount - rules.JSONInt64(lines[i]["discount_amount"])
			}
		case "ORDER_ITEMS_QUANTITY":
			sum += it.Quantity
		}
	}
	return max(sum, 0)
}

// counts reports whether the proportion's object/id names the line.
func (p *proportion) counts(it rules.Item) bool {
	if p.Object == "" {
		return true
	}
	if p.ID == "" {
		return false
	}
	switch p.Object {
	case "product":
		return it.ProductID == p.ID || slices.Contains(it.ProductAliases, p.ID)
	case "sku":
		return it.SKUID == p.ID || slices.Contains(it.SKUAliases, p.ID)
	case "products_collection":
		return slices.Contains(it.Collections, p.ID)
	}
	return false
}

// withCatalog completes the items from the catalogue when a rule's
// ORDER_ITEMS_* proportion names a product or a collection: a SKU line's
// product, the ids behind source_ids, and which of the named collections
// hold each line.
func withCatalog(ctx context.Context, fired []firingRule, items []rules.Item) error {
	var ids []string
	lookUp := false
	for _, fr := range fired {
		p, _ := fr.formula.proportion()
		if p == nil || (p.Object != "product" && p.Object != "products_collection") {
			continue
		}
		lookUp = true
		if p.Object == "products_collection" && !slices.Contains(ids, p.ID) {
			ids = append(ids, p.ID)
		}
	}
	if !lookUp || len(items) == 0 {
		return nil
	}
	refs := make([]catalog.CartRef, len(items))
	for i, it := range items {
		refs[i] = catalog.CartRef{Product: firstOf(it.ProductID, it.ProductAliases), SKU: firstOf(it.SKUID, it.SKUAliases)}
	}
	lines, err := catalog.ResolveCart(ctx, refs, ids)
	if err != nil {
		return fmt.Errorf("reading the order's products: %w", err)
	}
	for i := range min(len(items), len(lines)) {
		it, l := &items[i], lines[i]
		it.Collections = l.Collections
		it.ProductAliases = append(it.ProductAliases, l.ProductID, l.ProductSourceID)
		it.SKUAliases = append(it.SKUAliases, l.SKUID, l.SKUSourceID)
	}
	return nil
}

// firstOf is id, else the first alias.
func firstOf(id string, aliases []string) string {
	if id == "" && len(aliases) > 0 {
		return aliases[0]
	}
	return id
}

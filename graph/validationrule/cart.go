package validationrule

import "strings"

// Cart rules: amounts at the points of the stack, line prices and
// metadata, the order.items.* rules with targets and nested rules, SKU
// rules, budgets and redemption counts (Context.Count) and the names
// accepted without being enforced.

// evalCart evaluates the kinds eval does not: it reports whether c holds
// and, when not, the failure key.
func (c Condition) evalCart(k kind, mdKey string, ctx Context, all func(func(string, []any) bool) bool) (bool, string) {
	fail := k.failureKey()
	items := ctx.OrderItems
	switch k {
	case kindInitialAmount, kindTotalAmount:
		amount := ctx.OrderAmount
		if k == kindInitialAmount && ctx.OrderInitialAmount != nil {
			amount = ctx.OrderInitialAmount
		}
		if k == kindTotalAmount && ctx.OrderTotalAmount != nil {
			amount = ctx.OrderTotalAmount
		}
		if amount == nil {
			return false, KeyMissingAmount
		}
		return all(func(op string, xs []any) bool { return numeric(op, xs, *amount) }), fail
	case kindPriceAny, kindPriceEach, kindLineQuantity, kindSKUPrice, kindSKUQuantity:
		ok := all(func(op string, xs []any) bool {
			return quantified(items, k == kindPriceEach, func(it Item) (bool, bool) {
				if (k == kindSKUPrice || k == kindSKUQuantity) && it.SKUID == "" {
					return false, false
				}
				v := it.unitPrice()
				if k == kindLineQuantity || k == kindSKUQuantity {
					v = it.Quantity
				}
				return numeric(op, xs, v), true
			})
		})
		return itemsResult(ok, items, fail)
	case kindItemsMetaAny, kindItemsMetaEach, kindProductMeta:
		ok := all(func(op string, xs []any) bool {
			return quantified(items, k == kindItemsMetaEach, func(it Item) (bool, bool) {
				md := it.Metadata
				if k == kindProductMeta {
					md = it.ProductMetadata
				}
				return metadata(op, xs, md, mdKey), true
			})
		})
		return itemsResult(ok, items, fail)
	case kindProduct, kindSKUID, kindItemsAny, kindItemsEvery, kindItemsNone, kindItemsCheapest, kindItemsMostExpensive:
		return itemsResult(all(func(op string, xs []any) bool { return c.itemsRule(k, op, xs, items) }), items, fail)
	case kindCount:
		if ctx.Count == nil {
			return true, fail
		}
		switch {
		case strings.HasPrefix(c.Name, NameRedemptionCountPerCustomer) && ctx.CustomerID == "":
			return false, KeyMissingCustomer // a per-customer count needs the customer
		case strings.HasPrefix(c.Name, "redemption.count.per_api_key") && ctx.APIKey == "":
			return false, fail // a caller without an application key has no count to stay within
		}
		n, known := ctx.Count(c.Name)
		if !known {
			return true, fail
		}
		if !isAmountCount(c.Name) {
			n++ // the redemption being checked counts
		}
		return all(func(op string, xs []any) bool { return numeric(op, xs, n) }), fail
	case kindString:
		var who []string // a caller without an application key is none of the keys listed
		if ctx.APIKey != "" {
			who = []string{ctx.APIKey}
		}
		return all(func(op string, xs []any) bool { return setOp(op, anyIn(who, xs)) }), fail
	case kindGiftAmount, kindPointsUsed, kindLinkedCustomer, kindCustomEventMeta, kindRefused:
		return evalRedemptionName(k, mdKey, ctx, all), fail // redemption_names.go
	}
	return false, fail
}

// quantified reports whether some line (each: every line, and at least
// one) holds; test returns whether a line holds and whether it counts.
func quantified(items []Item, each bool, test func(Item) (holds, counts bool)) bool {
	seen := false
	for _, it := range items {
		holds, counts := test(it)
		if !counts {
			continue
		}
		seen = true
		if holds != each {
			return holds
		}
	}
	return each && seen
}

// itemsResult turns a false item rule on an empty cart into missing_order_items.
func itemsResult(ok bool, items []Item, fail string) (bool, string) {
	if !ok && len(items) == 0 {
		return false, KeyMissingItems
	}
	return ok, fail
}

// isAmountCount reports whether a count name is an amount (not counting
// the redemption being checked).
func isAmountCount(name string) bool {
	return name == "campaign.orders.amount" || name == "campaign.orders.amount_discounted"
}

// itemsRule evaluates an order.items.* (or product.id, sku.id) rule's
// operator: $is/$in with the rule's meaning, $is_not/$not_in its negation.
func (c Condition) itemsRule(k kind, op string, xs []any, items []Item) bool {
	var matched []Item
	for _, it := range items {
		if itemMatches(it, xs) && (k != kindSKUID || it.SKUID != "") {
			matched = append(matched, it)
		}
	}
	qualifies := func(it Item) bool { return itemMatches(it, xs) && c.nestedHolds(it, matched) }
	var res bool
	switch k {
	case kindItemsEvery:
		res = len(items) > 0
		for _, it := range items {
			res = res && qualifies(it)
		}
	case kindItemsNone:
		res = true
		for _, it := range items {
			res = res && !qualifies(it)
		}
	case kindItemsCheapest, kindItemsMostExpensive:
		pick := -1
		for i, it := range items {
			if pick < 0 || (k == kindItemsCheapest && it.unitPrice() < items[pick].unitPrice()) ||
				(k == kindItemsMostExpensive && it.unitPrice() > items[pick].unitPrice()) {
				pick = i
			}
		}
		res = pick >= 0 && qualifies(items[pick])
	default:
		for _, it := range matched {
			res = res || qualifies(it)
		}
	}
	return setOp(op, res)
}

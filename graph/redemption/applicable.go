package redemption

import (
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// applicable_to / inapplicable_to (reference §7.2): the lines a
// redeemable's item effects apply to come from its rules' applicable_to
// entries; the response lists them with the lines they covered.

// ruleView is a calculation line as rules see it (with the catalogue's
// ids and collections once the cart is loaded; cart_rules.go).
func (s *redeemableState) ruleView(it discount.Item) validationrule.Item {
	if s.itemView != nil {
		return s.itemView(it)
	}
	return validationrule.Item{ProductID: it.ProductID, SKUID: it.SKUID, Quantity: it.Quantity, Amount: it.Amount, Price: it.Price}
}

// eligible selects the order lines every assigned rule's applicable_to
// admits (exclusion wins; a set with included entries admits only them).
func (s *redeemableState) eligible() discount.Eligible {
	var limits []validationrule.ApplicableTo
	for _, r := range s.rules {
		if !r.ApplicableTo.Empty() {
			limits = append(limits, r.ApplicableTo)
		}
	}
	if len(limits) == 0 {
		return nil
	}
	return func(it discount.Item) bool {
		v := s.ruleView(it)
		for _, l := range limits {
			if !l.Applies(v) {
				return false
			}
		}
		return true
	}
}

// includedEntries are the included applicable_to entries of every rule set, in order.
func (s *redeemableState) includedEntries() []validationrule.Target {
	var out []validationrule.Target
	for _, r := range s.rules {
		out = append(out, r.ApplicableTo.Included...)
	}
	return out
}

// withTargets completes a discount with s's applicable_to entries as
// targets, and the default item effect: APPLY_TO_ITEMS when the rules
// name products and no effect is set (reference §7.1).
func (s *redeemableState) withTargets(d discount.Discount) discount.Discount {
	entries := s.includedEntries()
	targeted := len(entries) > 0
	for _, r := range s.rules {
		targeted = targeted || len(r.ApplicableTo.Excluded) > 0
	}
	if d.Type == discount.TypeUnit {
		return s.withUnitPrices(d) // unit_prices.go
	}
	if !targeted {
		return d
	}
	if d.Effect == "" {
		d.Effect = discount.EffectApplyToItems
	}
	if d.EffectOrDefault() == discount.EffectApplyToOrder {
		return d
	}
	for k, en := range entries {
		en := en
		t := discount.Target{
			Match: func(it discount.Item) bool { return en.Matches(s.ruleView(it)) },
			Pick:  discount.Pick(en.Effect), Units: en.Unit == "UNIT", Price: en.Price,
			QuantityLimit: en.QuantityLimit, AggregatedQuantityLimit: en.AggregatedQuantityLimit,
			AmountLimit: en.AmountLimit, AggregatedAmountLimit: en.AggregatedAmountLimit,
			SkipInitially: en.SkipInitially, Repeat: en.Repeat}
		s.applyBudget(k, &t) // unit_budgets.go
		d.Targets = append(d.Targets, t)
	}
	return d
}

// applicableTo lists the included entries as configured (effect defaulted
// to APPLY_TO_EVERY) with the lines they covered (order_item_indices,
// order_item_units), then one entry per cart product or SKU a collection
// entry admitted (exclusions applied); res is what the redeemable gave
// (nil: not applied).
func (e *evaluation) applicableTo(s *redeemableState, res *discount.Result) map[string]any {
	entries := s.includedEntries()
	data := make([]any, 0, len(entries))
	listed := map[string]bool{}
	for _, en := range entries {
		listed[en.Object+" "+en.ID] = true
	}
	var extra []any
	for k, en := range entries {
		m := en.Map()
		if en.Effect == "" {
			m["effect"] = string(discount.PickEvery)
		}
		var tr *discount.TargetResult
		if res != nil && k < len(res.Targets) && len(res.Targets) == len(entries) {
			tr = &res.Targets[k]
		}
		if tr != nil {
			m["order_item_indices"] = orEmptyInts(tr.Lines)
			m["order_item_units"] = itemUnits(tr)
		}
		data = append(data, m)
		if e.order == nil || en.Object != validationrule.ObjectCollection {
			continue
		}
		eligible := s.eligible()
		for _, it := range e.order.Items {
			v := s.ruleView(it)
			if !en.Matches(v) || !eligible(it) {
				continue
			}
			for _, c := range cartEntries(v, m) {
				key := c["object"].(string) + " " + c["id"].(string)
				if !listed[key] {
					listed[key] = true
					extra = append(extra, c)
				}
			}
		}
	}
	return listOf(append(data, extra...))
}

// cartEntries is the entry a matched cart line adds: its SKU (with its
// product) or its product, copying the configured entry's settings.
func cartEntries(v validationrule.Item, from map[string]any) []map[string]any {
	copyFrom := func(m map[string]any) map[string]any {
		for _, k := range []string{"effect", "price", "quantity_limit", "aggregated_quantity_limit", "amount_limit",
			"aggregated_amount_limit", "skip_initially", "repeat", "target"} {
			if x, ok := from[k]; ok {
				m[k] = x
			}
		}
		return m
	}
	productID, productSource := canonical(v.ProductID, v.ProductAliases, "prod_")
	skuID, skuSource := canonical(v.SKUID, v.SKUAliases, "sku_")
	switch {
	case skuID != "":
		m := map[string]any{"object": "sku", "id": skuID, "source_id": skuSource, "product_id": productID,
			"product_source_id": productSource}
		return []map[string]any{copyFrom(m)}
	case productID != "":
		return []map[string]any{copyFrom(map[string]any{"object": "product", "id": productID, "source_id": productSource})}
	}
	return nil
}

// canonical picks the catalogue id (the one with prefix) and the other
// id (the source id) among a line's ids; without a catalogue id the id
// sent is used for both.
func canonical(id string, aliases []string, prefix string) (string, string) {
	all := append([]string{id}, aliases...)
	catalogID, source := "", ""
	for _, a := range all {
		switch {
		case a == "":
		case catalogID == "" && len(a) > len(prefix) && a[:len(prefix)] == prefix:
			catalogID = a
		case source == "":
			source = a
		}
	}
	if catalogID == "" {
		return source, source
	}
	if source == "" {
		source = catalogID
	}
	return catalogID, source
}

// itemUnits is order_item_units: per line its discounted unit numbers,
// or units_limit_exceeded past the 1,000-unit bound.
func itemUnits(tr *discount.TargetResult) []any {
	out := make([]any, 0, len(tr.Lines))
	if tr.UnitsLimitExceeded {
		for _, i := range tr.Lines {
			out = append(out, map[string]any{"index": i, "units_limit_exceeded": true})
		}
		return out
	}
	for _, lu := range tr.Units {
		out = append(out, map[string]any{"index": lu.Index, "units": lu.Units})
	}
	return out
}

// inapplicableTo lists the excluded entries of every rule set as configured.
func (s *redeemableState) inapplicableTo() map[string]any {
	var data []any
	for _, r := range s.rules {
		for _, en := range r.ApplicableTo.Excluded {
			m := en.Map()
			if en.Effect == "" {
				m["effect"] = string(discount.PickEvery)
			}
			data = append(data, m)
		}
	}
	return listOf(data)
}

// orEmptyInts is xs, or an empty list (JSON []) for nil.
func orEmptyInts(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}

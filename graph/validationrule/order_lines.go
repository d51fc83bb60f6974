package validationrule

// ItemsOfOrderLines are an order's stored lines (JSON objects: product_id,
// sku_id, source_id, quantity, amount, price, metadata, product, sku) as
// the rule language reads them.
func ItemsOfOrderLines(items []map[string]any) []Item {
	out := make([]Item, 0, len(items))
	for _, m := range items {
		it := Item{Quantity: JSONInt64(m["quantity"]), Amount: JSONInt64(m["amount"]), Price: JSONInt64(m["price"])}
		it.ProductID, _ = m["product_id"].(string)
		it.SKUID, _ = m["sku_id"].(string)
		if src, ok := m["source_id"].(string); ok && src != "" {
			if it.SKUID != "" {
				it.SKUAliases = append(it.SKUAliases, src)
			} else {
				it.ProductAliases = append(it.ProductAliases, src)
			}
		}
		it.Metadata, _ = m["metadata"].(map[string]any)
		if p, ok := m["product"].(map[string]any); ok {
			it.ProductMetadata, _ = p["metadata"].(map[string]any)
			if src, ok := p["source_id"].(string); ok && src != "" {
				it.ProductAliases = append(it.ProductAliases, src)
			}
		}
		if s, ok := m["sku"].(map[string]any); ok {
			if src, ok := s["source_id"].(string); ok && src != "" {
				it.SKUAliases = append(it.SKUAliases, src)
			}
		}
		out = append(out, it)
	}
	return out
}

// JSONInt64 is a stored JSON number as an int64: a float64 as decoded
// from JSON, or an int64/int written by Go; anything else is 0.
func JSONInt64(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case int64:
		return n
	case int:
		return int64(n)
	}
	return 0
}

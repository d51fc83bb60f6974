package graph

// The stored form of an order view. Orders and redemptions keep the
// calculated order in a JSON column typed as a map, and a redemption
// stores one per row: building the map field by field spares the JSON
// encode-and-decode round trip that took ~8% of a
// redemption's server CPU. asMap must encode exactly as the struct does
// (TestOrderViewMapEncodesAsTheStruct): the same keys, the same
// omissions, the same values.

// asMap is v as encoding/json would decode its JSON into a map.
func (v *orderView) asMap() map[string]any {
	m := make(map[string]any, 20)
	putString(m, "id", v.ID)
	putString(m, "source_id", v.SourceID)
	putString(m, "status", v.Status)
	m["amount"], m["initial_amount"], m["discount_amount"] = v.Amount, v.InitialAmount, v.DiscountAmount
	m["items_discount_amount"], m["total_discount_amount"] = v.ItemsDiscountAmount, v.TotalDiscountAmount
	m["total_amount"], m["applied_discount_amount"] = v.TotalAmount, v.AppliedDiscountAmount
	m["items_applied_discount_amount"] = v.ItemsAppliedDiscountAmount
	m["total_applied_discount_amount"] = v.TotalAppliedDiscountAmount
	if v.Items == nil {
		m["items"] = nil
	} else {
		items := make([]any, len(v.Items))
		for i := range v.Items {
			items[i] = v.Items[i].asMap()
		}
		m["items"] = items
	}
	m["metadata"] = nilIfNilMap(v.Metadata)
	if v.CustomerID == nil {
		m["customer_id"] = nil
	} else {
		m["customer_id"] = *v.CustomerID
	}
	if len(v.Customer) > 0 {
		m["customer"] = v.Customer
	}
	putString(m, "created_at", v.CreatedAt)
	if len(v.Redemptions) > 0 {
		m["redemptions"] = v.Redemptions
	}
	m["object"] = v.Object
	return m
}

// asMap is one order line as encoding/json would decode its JSON into a map.
func (it *orderItemView) asMap() map[string]any {
	m := make(map[string]any, 15)
	m["object"] = it.Object
	putString(m, "product_id", it.ProductID)
	putString(m, "sku_id", it.SkuID)
	putString(m, "source_id", it.SourceID)
	putString(m, "related_object", it.RelatedObject)
	m["quantity"], m["initial_quantity"], m["discount_quantity"] = it.Quantity, it.InitialQuantity, it.DiscountQuantity
	m["price"], m["amount"], m["initial_amount"] = it.Price, it.Amount, it.InitialAmount
	m["discount_amount"], m["applied_discount_amount"] = it.DiscountAmount, it.AppliedDiscountAmount
	m["subtotal_amount"] = it.SubtotalAmount
	if len(it.Metadata) > 0 {
		m["metadata"] = it.Metadata
	}
	return m
}

// putString sets key to *s, or leaves it out when s is nil (omitempty).
func putString(m map[string]any, key string, s *string) {
	if s != nil {
		m[key] = *s
	}
}

// nilIfNilMap is m, or an untyped nil for a nil map (JSON null either way;
// the untyped nil is what decoding gives).
func nilIfNilMap(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

package validationrule

// orderLevelKinds are the rule kinds that read the order's totals, the
// customer, metadata or counters — never an order line's product, SKU,
// price or collections — so a definition made only of them holds or fails
// without the catalogue's view of the cart.
var orderLevelKinds = map[kind]bool{
	kindAmount: true, kindInitialAmount: true, kindTotalAmount: true,
	kindItemsCount: true, kindItemsQuantity: true,
	kindSegment: true, kindCustomerID: true, kindPerCustomer: true,
	kindOrderMeta: true, kindRedemptionMeta: true, kindCustomerMeta: true,
	kindCount: true, kindString: true, kindGiftAmount: true, kindPointsUsed: true, kindLinkedCustomer: true,
	kindCustomEventMeta: true, kindRefused: true,
}

// ReadsCart reports whether evaluating d (or computing its applicable_to)
// needs the order lines as the catalogue knows them: a rule on items,
// products, SKUs, prices or collections, nested item rules, an
// applicable_to list or bundle_rules. A definition of order-level rules only (order
// amount, segment, metadata, counts) does not, and a redemption can skip
// reading the catalogue for it.
func (d Definition) ReadsCart() bool {
	if d.compiled != nil {
		return d.compiled.readsCart
	}
	if len(d.ApplicableTo.Included) > 0 || len(d.ApplicableTo.Excluded) > 0 || d.Bundle != nil {
		return true
	}
	for _, c := range d.Rules {
		k, _ := kindOf(c.Name)
		if len(c.Nested) > 0 || !orderLevelKinds[k] {
			return true
		}
	}
	return false
}

// ReadsProductMetadata reports whether evaluating d reads an order line's
// product metadata (a product.metadata rule: the only rules that do, nested
// rules reading the line's own metadata), so that a cart's products can be
// read without their metadata otherwise.
func (d Definition) ReadsProductMetadata() bool {
	if d.compiled != nil {
		return d.compiled.productMetadata
	}
	for _, c := range d.Rules {
		if k, _ := kindOf(c.Name); k == kindProductMeta {
			return true
		}
	}
	return false
}

// ReadsCustomerRecords reports whether evaluating d reads the customer's
// stored records beyond the profile: segments (customer.segment) or the
// count of their redemptions of the voucher (redemption.count.per_customer),
// so a redemption reads each only when some rule asks for it.
func (d Definition) ReadsCustomerRecords() (segments, redemptions bool) {
	for _, c := range d.Rules {
		switch k, _ := kindOf(c.Name); k {
		case kindSegment:
			segments = true
		case kindPerCustomer:
			redemptions = true
		}
	}
	return segments, redemptions
}

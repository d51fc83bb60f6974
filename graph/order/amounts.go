package order

import (
	"strings"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
)

// The order maths of a stored order (reference: redemption-behaviour §2.2):
//
//	items[i].amount        = price × quantity when not sent
//	amount                 = Σ items[i].amount when not sent
//	items_discount_amount  = Σ items[i].discount_amount
//	total_discount_amount  = discount_amount + items_discount_amount
//	total_amount           = amount − total_discount_amount
//	items[i].subtotal_amount = items[i].amount − items[i].discount_amount
//
// A line's missing price is the catalogue's (the SKU's, else its
// product's). The applied_* amounts are what one redemption applied; an
// order written through /v1/orders applies none (redemptions keep theirs).

// catalogRef is what the catalogue knows of one line (zero when nothing).
type catalogRef struct {
	ProductID, SkuID string // catalogue ids
	Price            *int64
	Product, Sku     map[string]any // snapshots shown on the line
}

// checkItems refuses what no order may hold: more than MaxItems lines, a
// line that is not an object, or a quantity below 1.
func checkItems(items []*ItemInput) error {
	if len(items) > MaxItems {
		return apperr.InvalidPayload("Property .items may hold at most %d items, got %d", MaxItems, len(items))
	}
	for i, it := range items {
		if it == nil {
			return apperr.InvalidPayload("Property .items[%d] must be an object", i)
		}
		if it.Quantity != nil && *it.Quantity < 1 {
			return apperr.InvalidPayload("Property .items[%d].quantity cannot be lower than 1", i)
		}
	}
	return nil
}

// calculate works out an order's amounts: lines from items (refs[i] is
// what the catalogue knows of items[i]), amount as sent (else the sum of
// the lines) and the order-level discount already given.
func calculate(amount, discountAmount *int64, items []*ItemInput, refs []catalogRef) (*discount.Order, error) {
	if err := checkItems(items); err != nil {
		return nil, err
	}
	lines := make([]discount.Item, len(items))
	for i, it := range items {
		var ref catalogRef
		if i < len(refs) {
			ref = refs[i]
		}
		line := discount.Item{ProductID: ref.ProductID, SKUID: ref.SkuID}
		if it.Quantity != nil {
			line.Quantity = int64(*it.Quantity)
		}
		switch {
		case it.Price != nil:
			line.Price = *it.Price
		case ref.Price != nil:
			line.Price = *ref.Price
		}
		if it.Amount != nil {
			line.Amount = *it.Amount
		}
		if it.DiscountAmount != nil {
			line.DiscountAmount = *it.DiscountAmount
		}
		lines[i] = line
	}
	o, err := discount.NewOrder(amount, lines)
	if err != nil {
		return nil, invalidOrder(err)
	}
	if discountAmount != nil {
		if err := o.SetPreviousDiscount(*discountAmount); err != nil {
			return nil, invalidOrder(err)
		}
	}
	return o, nil
}

// invalidOrder is the 400 of a discount.ErrInvalidOrder.
func invalidOrder(err error) error {
	return apperr.InvalidPayload("Property .%s", strings.TrimPrefix(err.Error(), discount.ErrInvalidOrder.Error()+": "))
}

// lineJSON is line i of a calculated order as stored and shown: what the
// request said of it (source_id, related_object, metadata) with the
// calculated amounts and the catalogue's snapshot.
func lineJSON(it *ItemInput, ref catalogRef, line discount.Item) map[string]any {
	m := map[string]any{"object": "order_item", "quantity": line.Quantity, "price": line.Price,
		"amount": line.Amount, "discount_amount": line.DiscountAmount,
		"applied_discount_amount": line.AppliedDiscountAmount, "subtotal_amount": line.Subtotal()}
	productID, skuID := ref.ProductID, ref.SkuID
	if productID == "" && it.ProductID != nil {
		productID = *it.ProductID
	}
	if skuID == "" && it.SkuID != nil {
		skuID = *it.SkuID
	}
	if productID != "" {
		m["product_id"] = productID
	}
	if skuID != "" {
		m["sku_id"] = skuID
	}
	if it.SourceID != nil {
		m["source_id"] = *it.SourceID
	}
	if it.RelatedObject != nil {
		m["related_object"] = *it.RelatedObject
	}
	if ref.Product != nil {
		m["product"] = ref.Product
	} else if it.Product != nil {
		m["product"] = it.Product
	}
	if ref.Sku != nil {
		m["sku"] = ref.Sku
	} else if it.Sku != nil {
		m["sku"] = it.Sku
	}
	if it.Metadata != nil {
		m["metadata"] = it.Metadata
	}
	return m
}

// checkStatus refuses a status that is not one of the four.
func checkStatus(s *string) error {
	if s == nil {
		return nil
	}
	switch *s {
	case StatusCreated, StatusPaid, StatusCanceled, StatusFulfilled:
		return nil
	}
	return apperr.InvalidPayload("Property .status must be one of %s, got %q",
		strings.Join([]string{StatusCreated, StatusPaid, StatusCanceled, StatusFulfilled}, ", "), *s)
}

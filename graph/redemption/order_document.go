package redemption

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	orders "github.com/promoengine/promoengine/graph/order"
)

// The stored form of an order view. Orders (calculated) and redemptions
// (order) keep the calculated order as a JSON document: encoded once from
// the view when a redemption is made (an order and its parent redemption
// share one encoding), stored as is, and shown as stored. Code that needs
// a number from a stored order decodes the document.

// encodeOrderView is v's stored document.
func encodeOrderView(v *orderView) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the order: %w", err)
	}
	return b, nil
}

// DecodeOrderDocument is a stored order document as a map (empty for a
// missing document).
func DecodeOrderDocument(doc json.RawMessage) (map[string]any, error) {
	m := map[string]any{}
	if len(doc) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, fmt.Errorf("decoding a stored order: %w", err)
	}
	if m == nil { // the document was null
		m = map[string]any{}
	}
	return m, nil
}

// setColumns sets the amount and items columns of the order row being
// written (m) from v, the view its calculated document encodes; the lines
// are encoded on their own only when there are any. items is the items
// column's document as encoded (nil: the writer encodes the column's
// value), for a write batch to bind as is.
func (v *orderView) setColumns(m *ent.OrderMutation) (items json.RawMessage, err error) {
	a := orders.Amounts{Amount: v.Amount, DiscountAmount: v.DiscountAmount, ItemsDiscountAmount: v.ItemsDiscountAmount,
		TotalDiscountAmount: v.TotalDiscountAmount, TotalAmount: v.TotalAmount, AppliedDiscountAmount: v.AppliedDiscountAmount,
		ItemsAppliedDiscountAmount: v.ItemsAppliedDiscountAmount, TotalAppliedDiscountAmount: v.TotalAppliedDiscountAmount}
	if len(v.Items) == 0 {
		return nil, orders.SetAmountColumns(m, a, nil)
	}
	if items, err = json.Marshal(v.Items); err != nil {
		return nil, fmt.Errorf("encoding the order's lines: %w", err)
	}
	if lines, ok := plainLines(v.Items); ok {
		orders.SetAmountLines(m, a, lines)
		return items, nil
	}
	// Lines with metadata take the round trip: their numbers are stored
	// as decoding and encoding again gives them.
	return nil, orders.SetAmountColumns(m, a, items)
}

// plainLines are the lines as json.Unmarshal decodes their encoding
// (numbers float64, absent keys absent), built without the round trip —
// when that is exactly the same: no line has metadata, every string is
// valid UTF-8 and every number is exact as a float64.
func plainLines(items []orderItemView) ([]map[string]any, bool) {
	lines := make([]map[string]any, len(items))
	for i := range items {
		it := &items[i]
		if len(it.Metadata) > 0 || !utf8.ValidString(it.Object) {
			return nil, false
		}
		line := make(map[string]any, 14)
		line["object"] = it.Object
		for _, s := range [...]struct {
			key string
			v   *string
		}{{"product_id", it.ProductID}, {"sku_id", it.SkuID}, {"source_id", it.SourceID}, {"related_object", it.RelatedObject}} {
			if s.v == nil {
				continue
			}
			if !utf8.ValidString(*s.v) {
				return nil, false
			}
			line[s.key] = *s.v
		}
		for _, n := range [...]struct {
			key string
			v   int64
		}{{"quantity", it.Quantity}, {"initial_quantity", it.InitialQuantity}, {"discount_quantity", it.DiscountQuantity},
			{"price", it.Price}, {"amount", it.Amount}, {"initial_amount", it.InitialAmount},
			{"discount_amount", it.DiscountAmount}, {"applied_discount_amount", it.AppliedDiscountAmount},
			{"subtotal_amount", it.SubtotalAmount}} {
			if n.v > 1<<53 || n.v < -(1<<53) {
				return nil, false
			}
			line[n.key] = float64(n.v)
		}
		lines[i] = line
	}
	return lines, true
}

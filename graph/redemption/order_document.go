package redemption

import (
	"encoding/json"
	"fmt"

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

// decodeOrderDocument is a stored order document as a map (empty for a
// missing document).
func decodeOrderDocument(doc json.RawMessage) (map[string]any, error) {
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
// are encoded on their own only when there are any.
func (v *orderView) setColumns(m *ent.OrderMutation) error {
	a := orders.Amounts{Amount: v.Amount, DiscountAmount: v.DiscountAmount, ItemsDiscountAmount: v.ItemsDiscountAmount,
		TotalDiscountAmount: v.TotalDiscountAmount, TotalAmount: v.TotalAmount, AppliedDiscountAmount: v.AppliedDiscountAmount,
		ItemsAppliedDiscountAmount: v.ItemsAppliedDiscountAmount, TotalAppliedDiscountAmount: v.TotalAppliedDiscountAmount}
	var items json.RawMessage
	if len(v.Items) > 0 {
		b, err := json.Marshal(v.Items)
		if err != nil {
			return fmt.Errorf("encoding the order's lines: %w", err)
		}
		items = b
	}
	return orders.SetAmountColumns(m, a, items)
}

package order

import (
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// View is the REST order object (OrderCalculated), read from the order's
// columns. Every amount is present, 0 included (as in validation and
// redemption results), so typed clients never meet a missing total.
type View struct {
	ID          string           `json:"id"`
	SourceID    *string          `json:"source_id"`
	CreatedAt   string           `json:"created_at"`
	UpdatedAt   *string          `json:"updated_at"`
	Status      string           `json:"status"`
	Amounts                      // amount … total_applied_discount_amount, in the document's order
	Items       []map[string]any `json:"items"`
	Metadata    map[string]any   `json:"metadata"`
	Customer    map[string]any   `json:"customer,omitempty"`
	CustomerID  *string          `json:"customer_id"`
	Referrer    map[string]any   `json:"referrer,omitempty"`
	ReferrerID  *string          `json:"referrer_id"`
	Object      string           `json:"object"`
	Redemptions map[string]any   `json:"redemptions"`
}

// ViewOf is o as REST shows it.
func ViewOf(o *ent.Order) *View {
	v := &View{ID: o.ID, SourceID: o.SourceID, CreatedAt: clock.Format(o.CreatedAt), Status: o.Status.String(),
		Amounts: Amounts{Amount: o.Amount, DiscountAmount: o.DiscountAmount, ItemsDiscountAmount: o.ItemsDiscountAmount,
			TotalDiscountAmount: o.TotalDiscountAmount, TotalAmount: o.TotalAmount,
			AppliedDiscountAmount: o.AppliedDiscountAmount, ItemsAppliedDiscountAmount: o.ItemsAppliedDiscountAmount,
			TotalAppliedDiscountAmount: o.TotalAppliedDiscountAmount},
		Items:    o.Items,
		Metadata: shape.OrEmptyMap(o.Metadata), CustomerID: o.CustomerID, ReferrerID: o.ReferrerID,
		Object: "order", Redemptions: shape.OrEmptyMap(o.Redemptions)}
	if o.UpdatedAt != nil {
		s := clock.Format(*o.UpdatedAt)
		v.UpdatedAt = &s
	}
	if v.Items == nil {
		v.Items = []map[string]any{}
	}
	if o.CustomerID != nil {
		v.Customer = map[string]any{"id": *o.CustomerID, "object": "customer"}
	}
	if o.ReferrerID != nil {
		v.Referrer = map[string]any{"id": *o.ReferrerID, "object": "customer"}
	}
	return v
}

// document is o's calculated document (what redemptions read back).
func document(o *ent.Order) (json.RawMessage, error) {
	b, err := json.Marshal(ViewOf(o))
	if err != nil {
		return nil, fmt.Errorf("encoding the order: %w", err)
	}
	return b, nil
}

// Amounts are an order's calculated amounts, the columns beside its
// calculated document.
type Amounts struct {
	Amount                     int64 `json:"amount"`
	DiscountAmount             int64 `json:"discount_amount"`
	ItemsDiscountAmount        int64 `json:"items_discount_amount"`
	TotalDiscountAmount        int64 `json:"total_discount_amount"`
	TotalAmount                int64 `json:"total_amount"`
	AppliedDiscountAmount      int64 `json:"applied_discount_amount"`
	ItemsAppliedDiscountAmount int64 `json:"items_applied_discount_amount"`
	TotalAppliedDiscountAmount int64 `json:"total_applied_discount_amount"`
}

// calculatedColumns are the amounts and lines of a calculated document.
type calculatedColumns struct {
	Amounts
	Items []map[string]any `json:"items"`
}

// SetColumns sets the amount and items columns of an order being written
// (m: the mutation of its create or update) from its calculated document
// doc, so the columns lists, summaries and exports read say what the
// document says. Validation and redemption call it wherever they write
// an order's calculated document; a writer that has the amounts at hand
// calls SetAmountColumns instead and spares the decoding.
func SetColumns(m *ent.OrderMutation, doc json.RawMessage) error {
	var c calculatedColumns
	if len(doc) > 0 {
		if err := json.Unmarshal(doc, &c); err != nil {
			return fmt.Errorf("decoding the calculated order: %w", err)
		}
	}
	setColumns(m, c.Amounts, c.Items)
	return nil
}

// SetAmountColumns sets the columns as SetColumns does, from the amounts
// and the lines (items: the document's "items" member as encoded; nothing
// or null: no lines) of the calculated document being written.
func SetAmountColumns(m *ent.OrderMutation, a Amounts, items json.RawMessage) error {
	var lines []map[string]any
	if len(items) > 0 {
		if err := json.Unmarshal(items, &lines); err != nil {
			return fmt.Errorf("decoding the calculated lines: %w", err)
		}
	}
	setColumns(m, a, lines)
	return nil
}

// SetAmountLines sets the columns as SetAmountColumns does, from the
// lines as decoded (each as json.Unmarshal gives it: numbers float64).
func SetAmountLines(m *ent.OrderMutation, a Amounts, lines []map[string]any) {
	setColumns(m, a, lines)
}

func setColumns(m *ent.OrderMutation, a Amounts, items []map[string]any) {
	if items == nil {
		items = []map[string]any{}
	}
	m.SetAmount(a.Amount)
	m.SetDiscountAmount(a.DiscountAmount)
	m.SetItemsDiscountAmount(a.ItemsDiscountAmount)
	m.SetTotalDiscountAmount(a.TotalDiscountAmount)
	m.SetTotalAmount(a.TotalAmount)
	m.SetAppliedDiscountAmount(a.AppliedDiscountAmount)
	m.SetItemsAppliedDiscountAmount(a.ItemsAppliedDiscountAmount)
	m.SetTotalAppliedDiscountAmount(a.TotalAppliedDiscountAmount)
	m.SetItems(items)
}

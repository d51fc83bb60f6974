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
	ID                         string           `json:"id"`
	SourceID                   *string          `json:"source_id"`
	CreatedAt                  string           `json:"created_at"`
	UpdatedAt                  *string          `json:"updated_at"`
	Status                     string           `json:"status"`
	Amount                     int64            `json:"amount"`
	DiscountAmount             int64            `json:"discount_amount"`
	ItemsDiscountAmount        int64            `json:"items_discount_amount"`
	TotalDiscountAmount        int64            `json:"total_discount_amount"`
	TotalAmount                int64            `json:"total_amount"`
	AppliedDiscountAmount      int64            `json:"applied_discount_amount"`
	ItemsAppliedDiscountAmount int64            `json:"items_applied_discount_amount"`
	TotalAppliedDiscountAmount int64            `json:"total_applied_discount_amount"`
	Items                      []map[string]any `json:"items"`
	Metadata                   map[string]any   `json:"metadata"`
	Customer                   map[string]any   `json:"customer,omitempty"`
	CustomerID                 *string          `json:"customer_id"`
	Referrer                   map[string]any   `json:"referrer,omitempty"`
	ReferrerID                 *string          `json:"referrer_id"`
	Object                     string           `json:"object"`
	Redemptions                map[string]any   `json:"redemptions"`
}

// ViewOf is o as REST shows it.
func ViewOf(o *ent.Order) *View {
	v := &View{ID: o.ID, SourceID: o.SourceID, CreatedAt: clock.Format(o.CreatedAt), Status: o.Status.String(),
		Amount: o.Amount, DiscountAmount: o.DiscountAmount, ItemsDiscountAmount: o.ItemsDiscountAmount,
		TotalDiscountAmount: o.TotalDiscountAmount, TotalAmount: o.TotalAmount,
		AppliedDiscountAmount: o.AppliedDiscountAmount, ItemsAppliedDiscountAmount: o.ItemsAppliedDiscountAmount,
		TotalAppliedDiscountAmount: o.TotalAppliedDiscountAmount, Items: o.Items,
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

// calculatedColumns are the amounts and lines of a calculated document.
type calculatedColumns struct {
	Amount                     int64            `json:"amount"`
	DiscountAmount             int64            `json:"discount_amount"`
	ItemsDiscountAmount        int64            `json:"items_discount_amount"`
	TotalDiscountAmount        int64            `json:"total_discount_amount"`
	TotalAmount                int64            `json:"total_amount"`
	AppliedDiscountAmount      int64            `json:"applied_discount_amount"`
	ItemsAppliedDiscountAmount int64            `json:"items_applied_discount_amount"`
	TotalAppliedDiscountAmount int64            `json:"total_applied_discount_amount"`
	Items                      []map[string]any `json:"items"`
}

// SetColumns sets the amount and items columns of an order being written
// (m: the mutation of its create or update) from its calculated document
// doc, so the columns lists, summaries and exports read say what the
// document says. Validation and redemption call it wherever they write
// an order's calculated document.
func SetColumns(m *ent.OrderMutation, doc json.RawMessage) error {
	var c calculatedColumns
	if len(doc) > 0 {
		if err := json.Unmarshal(doc, &c); err != nil {
			return fmt.Errorf("decoding the calculated order: %w", err)
		}
	}
	if c.Items == nil {
		c.Items = []map[string]any{}
	}
	m.SetAmount(c.Amount)
	m.SetDiscountAmount(c.DiscountAmount)
	m.SetItemsDiscountAmount(c.ItemsDiscountAmount)
	m.SetTotalDiscountAmount(c.TotalDiscountAmount)
	m.SetTotalAmount(c.TotalAmount)
	m.SetAppliedDiscountAmount(c.AppliedDiscountAmount)
	m.SetItemsAppliedDiscountAmount(c.ItemsAppliedDiscountAmount)
	m.SetTotalAppliedDiscountAmount(c.TotalAppliedDiscountAmount)
	m.SetItems(c.Items)
	return nil
}

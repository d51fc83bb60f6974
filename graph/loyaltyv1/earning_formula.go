package loyaltyv1

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// flexInt is a whole number sent as a JSON number or a numeric string (the
// reference's request example sends "5").
type flexInt struct {
	Value int64
	Set   bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) {
		return fmt.Errorf("not a whole number: %s", b)
	}
	n.Value, n.Set = int64(f), true
	return nil
}

// proportion is one `{every, points, property?}` object of a PROPORTIONAL
// rule.
type proportion struct {
	Every    flexInt `json:"every"`
	Points   flexInt `json:"points"`
	Property string  `json:"property"`
	// Object and ID name the items an ORDER_ITEMS_* calculation counts
	// (product, sku or products_collection; none: every item).
	Object string `json:"object"`
	ID     string `json:"id"`
}

// formula is an earning rule's `loyalty` object.
type formula struct {
	Type            string  `json:"type"`
	CalculationType string  `json:"calculation_type"`
	Points          flexInt `json:"points"`
	Order           *struct {
		Amount      *proportion `json:"amount"`
		TotalAmount *proportion `json:"total_amount"`
		Metadata    *proportion `json:"metadata"`
	} `json:"order"`
	OrderItems *struct {
		Amount         *proportion `json:"amount"`
		SubtotalAmount *proportion `json:"subtotal_amount"`
		Quantity       *proportion `json:"quantity"`
	} `json:"order_items"`
	Customer *struct {
		Metadata *proportion `json:"metadata"`
	} `json:"customer"`
	CustomEvent *struct {
		Metadata *proportion `json:"metadata"`
	} `json:"custom_event"`
}

// calculation types of PROPORTIONAL rules and the events they suit ("" any).
var calculations = map[string]string{
	"ORDER_AMOUNT": "order.paid", "ORDER_TOTAL_AMOUNT": "order.paid", "ORDER_METADATA": "order.paid",
	"ORDER_ITEMS_AMOUNT": "order.paid", "ORDER_ITEMS_SUBTOTAL_AMOUNT": "order.paid", "ORDER_ITEMS_QUANTITY": "order.paid",
	"CUSTOMER_METADATA": "", "CUSTOM_EVENT_METADATA": "custom",
}

// parseFormula reads and checks a `loyalty` object for a rule of event
// kind ("order.paid", "custom", "segment" or "tier").
func parseFormula(raw map[string]any, kind string) (*formula, error) {
	if raw == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'loyalty'")
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, apperr.InvalidPayload("Property .loyalty cannot be read")
	}
	var f formula
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, apperr.InvalidPayload("Property .loyalty is invalid: %v", err)
	}
	switch f.Type {
	case "FIXED":
		if !f.Points.Set || f.Points.Value < 0 || f.Points.Value > loyalty.MaxPoints {
			return nil, apperr.InvalidPayload("Property .loyalty.points must be a whole number from 0 to %d", int64(loyalty.MaxPoints))
		}
		raw["points"] = f.Points.Value // "5" is stored and shown as 5
		return &f, nil
	case "PROPORTIONAL":
	default:
		return nil, apperr.InvalidPayload("Property .loyalty.type must be FIXED or PROPORTIONAL, got %q", f.Type)
	}
	want, ok := calculations[f.CalculationType]
	if !ok {
		return nil, apperr.InvalidPayload("Property .loyalty.calculation_type must be one of ORDER_AMOUNT, ORDER_TOTAL_AMOUNT, ORDER_METADATA, "+
			"ORDER_ITEMS_AMOUNT, ORDER_ITEMS_SUBTOTAL_AMOUNT, ORDER_ITEMS_QUANTITY, CUSTOMER_METADATA, CUSTOM_EVENT_METADATA, got %q", f.CalculationType)
	}
	if want != "" && want != kind {
		return nil, apperr.InvalidPayload("Property .loyalty.calculation_type %s cannot be used with this event", f.CalculationType)
	}
	p, path := f.proportion()
	if p == nil {
		return nil, apperr.InvalidPayload("Property .loyalty.%s is required for calculation_type %s", path, f.CalculationType)
	}
	if !p.Every.Set || p.Every.Value < 1 || p.Every.Value > loyalty.MaxPoints {
		return nil, apperr.InvalidPayload("Property .loyalty.%s.every must be a whole number from 1 to %d", path, int64(loyalty.MaxPoints))
	}
	if !p.Points.Set || p.Points.Value < 0 || p.Points.Value > loyalty.MaxPoints {
		return nil, apperr.InvalidPayload("Property .loyalty.%s.points must be a whole number from 0 to %d", path, int64(loyalty.MaxPoints))
	}
	if strings.HasSuffix(f.CalculationType, "METADATA") && p.Property == "" {
		return nil, apperr.InvalidPayload("Property .loyalty.%s.property is required", path)
	}
	return &f, nil
}

// proportion is the object the calculation type reads, and its path.
func (f *formula) proportion() (*proportion, string) {
	switch f.CalculationType {
	case "ORDER_AMOUNT", "ORDER_TOTAL_AMOUNT", "ORDER_METADATA":
		if f.Order == nil {
			return nil, "order"
		}
		return map[string]*proportion{"ORDER_AMOUNT": f.Order.Amount, "ORDER_TOTAL_AMOUNT": f.Order.TotalAmount,
				"ORDER_METADATA": f.Order.Metadata}[f.CalculationType],
			"order." + map[string]string{"ORDER_AMOUNT": "amount", "ORDER_TOTAL_AMOUNT": "total_amount", "ORDER_METADATA": "metadata"}[f.CalculationType]
	case "ORDER_ITEMS_AMOUNT", "ORDER_ITEMS_SUBTOTAL_AMOUNT", "ORDER_ITEMS_QUANTITY":
		if f.OrderItems == nil {
			return nil, "order_items"
		}
		return map[string]*proportion{"ORDER_ITEMS_AMOUNT": f.OrderItems.Amount, "ORDER_ITEMS_SUBTOTAL_AMOUNT": f.OrderItems.SubtotalAmount,
				"ORDER_ITEMS_QUANTITY": f.OrderItems.Quantity}[f.CalculationType],
			"order_items." + map[string]string{"ORDER_ITEMS_AMOUNT": "amount", "ORDER_ITEMS_SUBTOTAL_AMOUNT": "subtotal_amount", "ORDER_ITEMS_QUANTITY": "quantity"}[f.CalculationType]
	case "CUSTOMER_METADATA":
		if f.Customer == nil {
			return nil, "customer.metadata"
		}
		return f.Customer.Metadata, "customer.metadata"
	case "CUSTOM_EVENT_METADATA":
		if f.CustomEvent == nil {
			return nil, "custom_event.metadata"
		}
		return f.CustomEvent.Metadata, "custom_event.metadata"
	}
	return nil, "loyalty"
}

// earningFacts are what a rule's formula may read.
type earningFacts struct {
	customerMetadata map[string]any
	eventMetadata    map[string]any
	orderAmount      *float64
	orderTotal       *float64
	orderMetadata    map[string]any
	// customerID and orderItems are read by the rules' validation rules
	// (earning_validation.go); orderLines, the order's stored lines, by
	// the ORDER_ITEMS_* calculations (earning_items.go).
	customerID string
	orderItems []rules.Item
	orderLines []map[string]any
}

// points is what the formula awards for the facts: FIXED its points,
// PROPORTIONAL loyalty.Proportional of the value its calculation type
// reads (0 when the value is missing or not a number); ORDER_ITEMS_* sum
// the order's matching lines (earning_items.go).
func (f *formula) points(facts earningFacts) int64 {
	if f.Type == "FIXED" {
		return f.Points.Value
	}
	p, _ := f.proportion()
	if p == nil {
		return 0
	}
	var value *float64
	switch f.CalculationType {
	case "ORDER_AMOUNT":
		value = facts.orderAmount
	case "ORDER_TOTAL_AMOUNT":
		value = facts.orderTotal
	case "ORDER_METADATA":
		value = number(facts.orderMetadata[p.Property])
	case "CUSTOMER_METADATA":
		value = number(facts.customerMetadata[p.Property])
	case "CUSTOM_EVENT_METADATA":
		value = number(facts.eventMetadata[p.Property])
	case "ORDER_ITEMS_AMOUNT", "ORDER_ITEMS_SUBTOTAL_AMOUNT", "ORDER_ITEMS_QUANTITY":
		v := float64(p.itemsValue(f.CalculationType, facts.orderItems, facts.orderLines))
		value = &v
	}
	if value == nil {
		return 0
	}
	return loyalty.Creditable(loyalty.Proportional(*value, float64(p.Every.Value), float64(p.Points.Value)))
}

// number reads a metadata value as a number.
func number(v any) *float64 {
	switch n := v.(type) {
	case float64:
		return &n
	case int64:
		f := float64(n)
		return &f
	case int:
		f := float64(n)
		return &f
	case json.Number:
		if f, err := n.Float64(); err == nil {
			return &f
		}
	}
	return nil
}

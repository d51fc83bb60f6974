package loyalty

import (
	"context"
	"encoding/json"
	"math"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// The order entry point of earning: an order that became PAID (graph/order
// calls it once per order) fires the ACTIVE rules of trigger event
// customer.order.paid for the customer's member cards.

// TriggerOrderPaid is the trigger event of the rules an order fires.
const TriggerOrderPaid = "customer.order.paid"

// OrderPaid implements LoyaltyEarning.
func (RuleEarning) OrderPaid(ctx context.Context, o *ent.Order, cust *ent.Customer) error {
	rules, err := ActiveRules(ctx, func(t *jsonfield.EarningTrigger) bool {
		return t.Event != nil && *t.Event == TriggerOrderPaid
	})
	if err != nil || len(rules) == 0 {
		return err
	}
	cards, err := earningCards(ctx, cust, nil)
	if err != nil {
		return err
	}
	return award(ctx, rules, cards, &EarningFacts{Cust: cust, Order: o}, &o.ID)
}

// orderProportionalPoints computes a proportional effect from the order
// (ok false: the effect's calculation type does not read the order):
// floor(x / every) × value where x is, by calculation type,
// PRE_DISCOUNT_ORDER_AMOUNT: amount; POST_DISCOUNT_ORDER_AMOUNT:
// total_amount; ORDER_METADATA_VALUE: the number at metadata[property];
// PRE_DISCOUNT_ORDER_ITEMS_AMOUNT, POST_DISCOUNT_ORDER_ITEMS_AMOUNT and
// ORDER_ITEMS_QUANTITY: the amount, subtotal or quantity of the lines of
// the rule's applicable_to products and SKUs (every line when it names none).
func orderProportionalPoints(p *jsonfield.PointsProportional, o *ent.Order) (float64, bool) {
	if p.CalculationType == nil {
		return 0, false
	}
	var rule *jsonfield.ProportionalRule
	var x float64
	switch *p.CalculationType {
	case "PRE_DISCOUNT_ORDER_AMOUNT", "POST_DISCOUNT_ORDER_AMOUNT", "ORDER_METADATA_VALUE":
		if p.Order == nil {
			return 0, true
		}
		switch *p.CalculationType {
		case "PRE_DISCOUNT_ORDER_AMOUNT":
			rule, x = p.Order.Amount, float64(o.Amount)
		case "POST_DISCOUNT_ORDER_AMOUNT":
			rule, x = p.Order.TotalAmount, float64(o.TotalAmount)
		default:
			rule = p.Order.Metadata
			if rule == nil || rule.Property == nil {
				return 0, true
			}
			v, ok := JSONNumber(o.Metadata[*rule.Property])
			if !ok {
				return 0, true
			}
			x = v
		}
	case "PRE_DISCOUNT_ORDER_ITEMS_AMOUNT", "POST_DISCOUNT_ORDER_ITEMS_AMOUNT", "ORDER_ITEMS_QUANTITY":
		if p.OrderItems == nil {
			return 0, true
		}
		key := "amount"
		switch *p.CalculationType {
		case "PRE_DISCOUNT_ORDER_ITEMS_AMOUNT":
			rule = p.OrderItems.Amount
		case "POST_DISCOUNT_ORDER_ITEMS_AMOUNT":
			rule, key = p.OrderItems.SubtotalAmount, "subtotal_amount"
		default:
			rule, key = p.OrderItems.Quantity, "quantity"
		}
		if rule == nil {
			return 0, true
		}
		for _, line := range o.Items {
			if lineApplies(line, rule.ApplicableTo) {
				if v, ok := JSONNumber(line[key]); ok {
					x += v
				}
			}
		}
	default:
		return 0, false
	}
	if rule == nil || rule.Every == nil || *rule.Every <= 0 || rule.Value == nil {
		return 0, true
	}
	return math.Floor(x / *rule.Every) * *rule.Value, true
}

// lineApplies reports whether an order line is one of the products or
// SKUs named (every line when none is named; collections are not
// resolved here and match no line).
func lineApplies(line map[string]any, to []jsonfield.ApplicableTo) bool {
	if len(to) == 0 {
		return true
	}
	for _, a := range to {
		if a.Product != nil && line["product_id"] == a.Product.ID {
			return true
		}
		if a.SKU != nil && line["sku_id"] == a.SKU.ID {
			return true
		}
	}
	return false
}

// JSONNumber reads a JSON number as decoded (float64, or json.Number from a
// request body) or as written in memory (int64, int).
func JSONNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

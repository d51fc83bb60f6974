package validationrule

// Context is what a definition is checked against.
type Context struct {
	// OrderAmount is the order amount before discounts (nil: no order or
	// amount given).
	OrderAmount *int64
	// OrderItems are the order lines.
	OrderItems []Item
	// OrderMetadata is the order's metadata (JSON-decoded).
	OrderMetadata map[string]any
	// RedemptionMetadata is the metadata sent with the validation/redemption.
	RedemptionMetadata map[string]any
	// CustomerID identifies the customer ("" when there is none).
	CustomerID string
	// CustomerMetadata is the customer's metadata (JSON-decoded).
	CustomerMetadata map[string]any
	// CustomerSegments holds the ids of the segments the customer belongs to.
	CustomerSegments []string
	// CustomerRedemptions counts the customer's successful redemptions of the
	// voucher being checked, not counting the one being checked.
	CustomerRedemptions int64
	// OrderInitialAmount is the order amount before any discount of the
	// request (nil: same as OrderAmount).
	OrderInitialAmount *int64
	// OrderTotalAmount is the order amount after this redeemable's discount
	// (nil: same as OrderAmount).
	OrderTotalAmount *int64
	// Count returns the value of a budget or redemption-count rule (one of
	// CountNames), not counting the redemption being checked; ok false
	// means the value is not known and the rule is not enforced. Nil: no
	// count is known.
	Count func(name string) (n int64, ok bool)
	// APIKey and UserLogin identify who calls ("" unknown: the rules
	// redemption.api_key and redemption.user.login are not enforced).
	APIKey, UserLogin string
	// GiftAmount is the gift credits the redemption takes (0: not a gift
	// card); PointsUsed the loyalty points it takes (0: none).
	GiftAmount, PointsUsed int64
	// LinkedCustomer: the voucher is held by (published to) the customer.
	LinkedCustomer bool
	// CustomEventMetadata is the metadata of the custom event being
	// processed (nil in validations and redemptions: there is none).
	CustomEventMetadata map[string]any
}

// Item is one order line.
type Item struct {
	// ProductID is the line's product id ("" when unknown).
	ProductID string
	// SKUID is the line's SKU id ("" for a product without SKU).
	SKUID string
	// Quantity is the number of units.
	Quantity int64
	// Amount is the line amount before discounts.
	Amount int64
	// Price is the unit price (0: unknown; then Amount/Quantity is used).
	Price int64
	// Metadata is the line's metadata.
	Metadata map[string]any
	// ProductMetadata is the line's product metadata (request over catalog).
	ProductMetadata map[string]any
	// Collections are the ids of the product collections the line belongs to.
	Collections []string
	// ProductAliases are other ids of the line's product (its source_id or
	// catalog id), matched like ProductID.
	ProductAliases []string
	// SKUAliases are other ids of the line's SKU, matched like SKUID.
	SKUAliases []string
}

// unitPrice is the line's unit price: Price, else Amount/Quantity.
func (it Item) unitPrice() int64 {
	if it.Price > 0 || it.Quantity <= 0 {
		return it.Price
	}
	return it.Amount / it.Quantity
}

// Failure keys (the real service's).
const (
	KeyOrderRules      = "order_rules_violated"
	KeyCustomerRules   = "customer_rules_violated"
	KeyRedemptionRules = "redemption_rules_violated"
	KeyMissingCustomer = "missing_customer"
	KeyMissingAmount   = "missing_amount"
	KeyMissingItems    = "missing_order_items"
)

var defaultMessages = map[string]string{
	KeyOrderRules:      "order does not match validation rules",
	KeyCustomerRules:   "customer does not match segment rules",
	KeyRedemptionRules: "redemption does not match validation rules",
	KeyMissingCustomer: "missing customer",
	KeyMissingAmount:   "missing order amount",
	KeyMissingItems:    "missing order items",
}

// DefaultMessage returns the real service's message for a failure key ("" for
// a key not listed above).
func DefaultMessage(key string) string { return defaultMessages[key] }

// Violation says why a definition failed.
type Violation struct {
	// Key is one of the Key* constants.
	Key string
	// Message is the custom error message if one is set, else
	// DefaultMessage(Key).
	Message string
	// Custom is the custom error message alone ("" when the rule and the
	// definition set none): the real service shows it apart from the
	// system message, as error.message.
	Custom string
	// RuleKey is the numbered rule blamed ("" when the definition itself is
	// invalid).
	RuleKey string
}

// Check evaluates d against ctx. It returns nil when the logic expression is
// satisfied; otherwise the violation of the first rule (in key order) among
// those that made the expression false. A definition that would not pass
// Validate fails with redemption_rules_violated.
func (d Definition) Check(ctx Context) *Violation {
	expr, err := d.logic()
	if err != nil {
		return d.violation("", KeyRedemptionRules)
	}
	if expr == nil {
		return nil
	}
	type result struct {
		rule string
		ok   bool
		key  string
	}
	// Each rule evaluated once (a rule may appear twice in the logic); a
	// definition has few rules, so a list is the cheaper memo.
	memo := make([]result, 0, len(d.Rules))
	lookup := func(k string) (result, bool) {
		for _, r := range memo {
			if r.rule == k {
				return r, true
			}
		}
		return result{}, false
	}
	ok, blame := expr.eval(func(k string) bool {
		r, seen := lookup(k)
		if !seen {
			r.rule = k
			r.ok, r.key = d.Rules[k].eval(ctx)
			memo = append(memo, r)
		}
		return r.ok
	})
	if ok {
		return nil
	}
	r, _ := lookup(blame)
	if r.ok { // a rule that held, blamed through "not"
		k, _ := kindOf(d.Rules[blame].Name)
		r.key = k.failureKey()
	}
	return d.violation(blame, r.key)
}

func (d Definition) violation(ruleKey, key string) *Violation {
	custom := d.Rules[ruleKey].ErrorMessage
	if custom == "" {
		custom = d.ErrorMessage
	}
	msg := custom
	if msg == "" {
		msg = DefaultMessage(key)
	}
	return &Violation{Key: key, Message: msg, Custom: custom, RuleKey: ruleKey}
}

// eval reports whether c holds for ctx and, when it does not, the failure key.
func (c Condition) eval(ctx Context) (bool, string) {
	k, mdKey := kindOf(c.Name)
	fail := k.failureKey()
	if k == kindUnknown || len(c.Conditions) == 0 {
		return false, fail
	}
	all := func(holds func(op string, xs []any) bool) bool {
		for op, xs := range c.Conditions {
			if !holds(op, xs) {
				return false
			}
		}
		return true
	}
	switch k {
	case kindAmount:
		if ctx.OrderAmount == nil {
			return false, KeyMissingAmount
		}
		return all(func(op string, xs []any) bool { return numeric(op, xs, *ctx.OrderAmount) }), fail
	case kindItemsCount, kindItemsQuantity:
		n := int64(len(ctx.OrderItems))
		if k == kindItemsQuantity {
			n = 0
			for _, it := range ctx.OrderItems {
				n += it.Quantity
			}
		}
		ok := all(func(op string, xs []any) bool { return numeric(op, xs, n) })
		if !ok && len(ctx.OrderItems) == 0 {
			return false, KeyMissingItems
		}
		return ok, fail
	case kindSegment, kindCustomerID, kindPerCustomer:
		if ctx.CustomerID == "" {
			return false, KeyMissingCustomer
		}
		have := ctx.CustomerSegments
		if k == kindCustomerID {
			have = []string{ctx.CustomerID}
		}
		return all(func(op string, xs []any) bool {
			if k == kindPerCustomer {
				return numeric(op, xs, ctx.CustomerRedemptions+1)
			}
			return setOp(op, anyIn(have, xs))
		}), fail
	case kindOrderMeta:
		return all(func(op string, xs []any) bool { return metadata(op, xs, ctx.OrderMetadata, mdKey) }), fail
	case kindRedemptionMeta:
		return all(func(op string, xs []any) bool { return metadata(op, xs, ctx.RedemptionMetadata, mdKey) }), fail
	case kindCustomerMeta:
		if ctx.CustomerID == "" {
			return false, KeyMissingCustomer
		}
		return all(func(op string, xs []any) bool { return metadata(op, xs, ctx.CustomerMetadata, mdKey) }), fail
	}
	return c.evalCart(k, mdKey, ctx, all) // cart.go
}

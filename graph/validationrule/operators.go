package validationrule

import (
	"fmt"
	"sort"
	"strings"
)

// Supported rule names. Metadata rules are a prefix followed by the
// metadata key (the whole rest of the name, dots included).
const (
	NameOrderAmount                = "order.amount"
	NameOrderItemsCount            = "order.items.count"
	NameOrderItemsQuantity         = "order.items.quantity"
	NameOrderItemsAny              = "order.items.any"
	NameProductID                  = "product.id"
	NameCustomerSegment            = "customer.segment"
	NameCustomerID                 = "customer.id"
	NameRedemptionCountPerCustomer = "redemption.count.per_customer"
	PrefixOrderMetadata            = "order.metadata."
	PrefixRedemptionMetadata       = "redemption.metadata."
	PrefixCustomerMetadata         = "customer.metadata."
)

// operatorAliases are operator spellings the reference's examples use for
// a supported operator.
var operatorAliases = map[string]string{"$greater_than_or_equal": "$more_than_or_equal", "$greater_than": "$more_than"}

// arity says which operands an operator takes.
type arity int

const (
	intOne      arity = iota // exactly one integer
	intMany                  // one or more integers
	idMany                   // one or more non-empty string ids
	productMany              // one or more product/sku ids or {object, id} objects
	scalarMany               // one or more strings, numbers or booleans
	numberOne                // exactly one number
	stringMany               // one or more strings
	flag                     // no operand, or [true]
	anyValues                // anything (names accepted but not enforced)
)

var (
	numericOps = map[string]arity{"$is": intMany, "$is_not": intMany, "$more_than": intOne,
		"$more_than_or_equal": intOne, "$less_than": intOne, "$less_than_or_equal": intOne}
	boolOps    = map[string]arity{"$is": scalarMany, "$is_not": scalarMany}
	idOps      = map[string]arity{"$is": idMany, "$in": idMany, "$is_not": idMany, "$not_in": idMany}
	productOps = map[string]arity{"$is": productMany, "$in": productMany, "$is_not": productMany, "$not_in": productMany}
	metaOps    = map[string]arity{"$is": scalarMany, "$in": scalarMany, "$is_not": scalarMany, "$not_in": scalarMany,
		"$more_than": numberOne, "$more_than_or_equal": numberOne, "$less_than": numberOne, "$less_than_or_equal": numberOne,
		"$contains": stringMany, "$starts_with": stringMany, "$ends_with": stringMany,
		"$is_defined": flag, "$is_not_defined": flag}
)

func normalizeCondition(prop string, c Condition) (Condition, error) {
	return normalizeKind(prop, c, kindOf)
}

// normalizeKind checks c with the names classify knows (top level or nested).
func normalizeKind(prop string, c Condition, classify func(string) (kind, string)) (Condition, error) {
	k, _ := classify(c.Name)
	if k == kindRefused {
		return Condition{}, errorf(prop+".name", "rule name %q is not supported: %s", c.Name, refusedNames[c.Name])
	}
	if k == kindUnknown {
		return Condition{}, errorf(prop+".name", "unsupported rule name %q (supported: %s)", c.Name, supportedNames())
	}
	if len(c.Conditions) == 0 {
		return Condition{}, errorf(prop+".conditions", "at least one operator is required for %s", c.Name)
	}
	ops := k.ops()
	out := Condition{Name: c.Name, ErrorMessage: c.ErrorMessage, Conditions: make(map[string][]any, len(c.Conditions)),
		NestedLogic: strings.TrimSpace(c.NestedLogic)}
	if len(c.Nested) > 0 {
		if !k.takesNested() {
			return Condition{}, errorf(prop+".rules", "nested rules are only supported under order.items.* and product.id rules")
		}
		out.Nested = make(map[string]Condition, len(c.Nested))
		for _, nk := range sortedKeys(c.Nested) {
			if !isRuleKey(nk) {
				return Condition{}, errorf(prop+".rules", "unexpected key %q (rule keys are positive integers)", nk)
			}
			n, err := normalizeKind(prop+".rules."+nk, c.Nested[nk], nestedKindOf)
			if err != nil {
				return Condition{}, err
			}
			out.Nested[nk] = n
		}
		if _, err := compileLogic(out.NestedLogic, out.Nested); err != nil {
			return Condition{}, errorf(prop+".rules.logic", "%v", err)
		}
	}
	for _, op := range sortedKeys(c.Conditions) {
		a, ok := ops[op]
		if !ok {
			return Condition{}, errorf(prop+".conditions", "unknown operator %q for %s (supported: %s)",
				op, c.Name, strings.Join(sortedOps(ops), ", "))
		}
		xs, err := normalizeOperands(prop+".conditions."+op, a, c.Conditions[op])
		if err != nil {
			return Condition{}, err
		}
		out.Conditions[op] = xs
	}
	return out, nil
}

func sortedOps(ops map[string]arity) []string {
	names := make([]string, 0, len(ops))
	for op := range ops {
		names = append(names, op)
	}
	sort.Strings(names)
	return names
}

func normalizeOperands(prop string, a arity, in []any) ([]any, error) {
	switch {
	case a == anyValues:
		return append([]any{}, in...), nil
	case a == flag:
		if len(in) == 0 || (len(in) == 1 && in[0] == true) {
			return append([]any{}, in...), nil
		}
		return nil, errorf(prop, "takes no operand (or [true])")
	case a == intOne && len(in) != 1:
		return nil, errorf(prop, "expects exactly one integer operand, got %d", len(in))
	case a == numberOne && len(in) != 1:
		return nil, errorf(prop, "expects exactly one number operand, got %d", len(in))
	case len(in) == 0:
		return nil, errorf(prop, "expects at least one operand")
	}
	out := make([]any, len(in))
	for i, v := range in {
		p := fmt.Sprintf("%s[%d]", prop, i)
		var ok bool
		switch a {
		case intOne, intMany:
			if out[i], ok = toInt(v); !ok {
				return nil, errorf(p, "must be an integer, got %s", describe(v))
			}
		case numberOne:
			if out[i], ok = toFloat(v); !ok {
				return nil, errorf(p, "must be a number, got %s", describe(v))
			}
		case idMany:
			if s, _ := v.(string); s != "" {
				out[i], ok = s, true
			}
			if !ok {
				return nil, errorf(p, "must be a non-empty string id, got %s", describe(v))
			}
		case productMany:
			x, err := productOperand(p, v)
			if err != nil {
				return nil, err
			}
			out[i] = x
		case scalarMany:
			if out[i], ok = scalar(v); !ok {
				return nil, errorf(p, "must be a string, number or boolean, got %s", describe(v))
			}
		case stringMany:
			if out[i], ok = v.(string); !ok {
				return nil, errorf(p, "must be a string, got %s", describe(v))
			}
		}
	}
	return out, nil
}

// productOperand accepts a product/sku id string, a Target, or an object
// {"object": "product"|"sku", "id": …} (other fields are ignored).
func productOperand(prop string, v any) (any, error) {
	switch x := v.(type) {
	case string:
		if x != "" {
			return x, nil
		}
	case Target:
		return x, x.validate(prop)
	case map[string]any:
		id, _ := x["id"].(string)
		obj, _ := x["object"].(string)
		if obj == "" && id != "" {
			return id, nil // {id} alone, as the reference's errors example: a product or SKU id
		}
		t := Target{Object: obj, ID: id}
		return t, t.validate(prop)
	}
	return nil, errorf(prop, "must be a product or sku id, or an object {\"object\": \"product\"|\"sku\", \"id\": …}, got %s", describe(v))
}

package validationrule

import (
	"fmt"
	"sort"
	"strings"
)

// MaxRules is the largest number of numbered rules one definition may hold.
const MaxRules = 20

// Definition is a validation rule's checkable part, decoded from the REST
// JSON form by Parse. Definitions built by hand should be checked with
// Validate before use.
type Definition struct {
	// Rules holds the conditions keyed by their number ("1", "2", …).
	Rules map[string]Condition
	// Logic combines the rules, e.g. "(1) and (2)" or "1 or (2 and 3)".
	// Empty means every rule joined by "and".
	Logic string
	// ErrorMessage is the rule's custom error.message ("" = none).
	ErrorMessage string
	// ApplicableTo limits the order items discounts may apply to.
	ApplicableTo ApplicableTo
	// Bundle is the rule set's bundle_rules (nil: none; bundle.go): the
	// cart must hold a complete bundle, and the bundles found multiply
	// the discount.
	Bundle *BundleRules

	// compiled is what Compile worked out once (nil: worked out at each
	// use).
	compiled *compiled
}

// Condition is one numbered rule: a rule name and its operators.
type Condition struct {
	// Name is the rule name, e.g. "order.amount" or "order.metadata.tier".
	Name string
	// Conditions maps each operator to its operands, e.g.
	// {"$more_than": [10000]}. The condition holds when every operator holds.
	Conditions map[string][]any
	// ErrorMessage is this rule's own error.message ("" = none). When set it
	// wins over Definition.ErrorMessage for violations blamed on this rule.
	ErrorMessage string
	// Nested holds the sub-rules of an order.items.* rule (order.items.quantity,
	// aggregated_quantity, price, aggregated_amount, metadata), keyed "1", "2", …
	Nested map[string]Condition
	// NestedLogic combines Nested ("" = all joined by and).
	NestedLogic string
}

// Error is what Parse and Validate return: Property names the offending
// property (e.g. "rules.1.conditions") and Reason says what is wrong.
type Error struct {
	// Property is the offending property's path, e.g. "rules.1.conditions".
	Property string
	// Reason says what is wrong with it.
	Reason string
}

// Error implements the error interface as "property: reason".
func (e *Error) Error() string { return e.Property + ": " + e.Reason }

func errorf(prop, format string, args ...any) error {
	return &Error{Property: prop, Reason: fmt.Sprintf(format, args...)}
}

// Parse decodes and checks a rule from its REST JSON form: rules (an object
// with numbered keys plus an optional "logic"), the error.message, and
// applicable_to ({included, excluded}). Any of them may be nil/empty. Errors
// are *Error values naming the offending property. The returned definition
// holds normalized operands (integers as int64, other numbers as float64,
// product objects as Target).
func Parse(rules map[string]any, errorMessage string, applicableTo map[string]any) (Definition, error) {
	conds, logic, err := decodeRules(rules)
	if err != nil {
		return Definition{}, err
	}
	at, err := decodeApplicableTo(applicableTo)
	if err != nil {
		return Definition{}, err
	}
	d := Definition{Rules: conds, Logic: logic, ErrorMessage: errorMessage, ApplicableTo: at}
	return d.normalize()
}

// Validate runs Parse's checks on a definition built by hand.
func (d Definition) Validate() error {
	_, err := d.normalize()
	return err
}

// Keys returns the rule keys in numeric order ("1", "2", …, "10").
func (d Definition) Keys() []string { return sortedKeys(d.Rules) }

// RulesMap returns the REST JSON form of the rules: the numbered entries
// (each with name, conditions, an empty nested rules object and, when set,
// error) plus "logic". Parse(d.RulesMap(), …) gives d back.
func (d Definition) RulesMap() map[string]any {
	m := map[string]any{"logic": d.Logic}
	for k, c := range d.Rules {
		conds := make(map[string]any, len(c.Conditions))
		for op, xs := range c.Conditions {
			conds[op] = append([]any{}, xs...)
		}
		e := map[string]any{"name": c.Name, "conditions": conds, "rules": Definition{Rules: c.Nested, Logic: c.NestedLogic}.nestedMap()}
		if c.ErrorMessage != "" {
			e["error"] = map[string]any{"message": c.ErrorMessage}
		}
		m[k] = e
	}
	return m
}

// nestedMap is RulesMap for nested rules: {} when there are none.
func (d Definition) nestedMap() map[string]any {
	if len(d.Rules) == 0 {
		return map[string]any{}
	}
	return d.RulesMap()
}

// keyLess orders rule keys numerically (keys are digit strings without
// leading zeros, so shorter means smaller).
func keyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return keys
}

// isRuleKey reports whether k is a positive integer without leading zeros.
func isRuleKey(k string) bool {
	if k == "" || len(k) > 9 || k[0] == '0' {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return true
}

func decodeRules(m map[string]any) (map[string]Condition, string, error) {
	out := map[string]Condition{}
	logic := ""
	n := len(m)
	if _, hasLogic := m["logic"]; hasLogic {
		n--
	}
	if n > MaxRules {
		return nil, "", errorf("rules", "at most %d rules are allowed, got %d", MaxRules, n)
	}
	for _, k := range sortedKeys(m) {
		v := m[k]
		if k == "logic" {
			if v == nil {
				continue
			}
			s, ok := v.(string)
			if !ok {
				return nil, "", errorf("rules.logic", "must be a string, got %s", describe(v))
			}
			logic = s
			continue
		}
		if !isRuleKey(k) {
			return nil, "", errorf("rules", "unexpected key %q (rule keys are positive integers \"1\", \"2\", …; the only other key is \"logic\")", k)
		}
		c, err := decodeCondition("rules."+k, v)
		if err != nil {
			return nil, "", err
		}
		out[k] = c
	}
	return out, logic, nil
}

func decodeCondition(prop string, v any) (Condition, error) {
	return decodeConditionIn(prop, v, propertyNames)
}

// decodeConditionIn decodes one rule; props are the names needing a property.
func decodeConditionIn(prop string, v any, props map[string]string) (Condition, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return Condition{}, errorf(prop, "must be an object, got %s", describe(v))
	}
	name, ok := obj["name"].(string)
	if !ok || name == "" {
		return Condition{}, errorf(prop+".name", "required (a non-empty string)")
	}
	if prefix, ok := props[name]; ok {
		key, _ := obj["property"].(string)
		if key == "" {
			return Condition{}, errorf(prop+".property", "Rule '%s' must have a 'property'", name)
		}
		name = prefix + key
	}
	c := Condition{Name: name, Conditions: map[string][]any{}}
	switch raw := obj["conditions"].(type) {
	case nil:
	case map[string]any:
		for op, xs := range raw {
			list, ok := asList(xs)
			if !ok {
				return Condition{}, errorf(prop+".conditions."+op, "operands must be an array, got %s", describe(xs))
			}
			if alias, ok := operatorAliases[op]; ok {
				op = alias
			}
			c.Conditions[op] = list
		}
	default:
		return Condition{}, errorf(prop+".conditions", "must be an object, got %s", describe(raw))
	}
	switch nested := obj["rules"].(type) {
	case nil:
	case map[string]any:
		if err := decodeNested(prop+".rules", nested, &c); err != nil {
			return Condition{}, err
		}
	default:
		return Condition{}, errorf(prop+".rules", "must be an object, got %s", describe(nested))
	}
	switch e := obj["error"].(type) {
	case nil:
	case map[string]any:
		switch msg := e["message"].(type) {
		case nil:
		case string:
			c.ErrorMessage = msg
		default:
			return Condition{}, errorf(prop+".error.message", "must be a string, got %s", describe(msg))
		}
	default:
		return Condition{}, errorf(prop+".error", "must be an object, got %s", describe(e))
	}
	return c, nil
}

// normalize checks d and returns a copy with normalized operands.
func (d Definition) normalize() (Definition, error) {
	if len(d.Rules) > MaxRules {
		return Definition{}, errorf("rules", "at most %d rules are allowed, got %d", MaxRules, len(d.Rules))
	}
	out := d
	out.compiled = nil // worked out from the rules before normalizing
	out.Rules = make(map[string]Condition, len(d.Rules))
	for _, k := range d.Keys() {
		if !isRuleKey(k) {
			return Definition{}, errorf("rules", "unexpected key %q (rule keys are positive integers \"1\", \"2\", …)", k)
		}
		c, err := normalizeCondition("rules."+k, d.Rules[k])
		if err != nil {
			return Definition{}, err
		}
		out.Rules[k] = c
	}
	out.Logic = strings.TrimSpace(d.Logic)
	if _, err := compileLogic(out.Logic, out.Rules); err != nil {
		return Definition{}, err
	}
	if err := d.ApplicableTo.validate(); err != nil {
		return Definition{}, err
	}
	return out, nil
}

// Package validationrule parses and evaluates Voucherify-style validation
// rules (every name of the reference's list; cart-promotions-behaviour.md §8,
// docs/promotions.md "Cart rules"). It is pure: no storage, no I/O,
// standard library only.
//
// A rule arrives over REST as
//
//	{"rules": {"1": {"name": "order.amount", "conditions": {"$more_than": [10000]}, "rules": {}},
//	           "2": {"name": "customer.segment", "conditions": {"$is": ["seg_abc"]}, "rules": {}},
//	           "logic": "(1) and (2)"},
//	 "error": {"message": "custom message"},
//	 "applicable_to": {"included": [{"object": "product", "id": "prod_1"}], "excluded": []}}
//
// Parse turns rules, error.message and applicable_to into a Definition (or
// an *Error naming the bad property); Definition.Check evaluates it against a
// Context and returns nil or the Violation to report; ApplicableTo.Applies
// says which order items a discount may apply to.
//
// # Rule names and operators
//
// Each numbered rule holds when ALL its operators hold. Operators taking a
// list ($is, $in, $is_not, $not_in) hold for "any of"/"none of" the operands.
//
//   - order.amount, order.items.count (number of lines), order.items.quantity
//     (sum of quantities), redemption.count.per_customer: $is, $is_not,
//     $more_than, $more_than_or_equal, $less_than, $less_than_or_equal with
//     integer operands (10000.0 is fine, 100.5 is not).
//   - order.items.any, product.id: $is/$in (some item matches an operand),
//     $is_not/$not_in (no item does). An operand is an id string (matching an
//     item's product or SKU id) or {"object": "product"|"sku", "id": …}.
//   - customer.segment, customer.id: $is/$in, $is_not/$not_in with ids.
//   - order.metadata.<key>, redemption.metadata.<key> (everything after the
//     prefix is one key, dots included): $is/$in, $is_not/$not_in (strings,
//     numbers, booleans; numbers compare by value whatever their Go type,
//     no string/number coercion), $more_than… (one number), $contains,
//     $starts_with, $ends_with (strings; any operand), $is_defined and
//     $is_not_defined (no operand or [true]).
//
// # Decisions
//
//   - Failure keys: order.* rules and order metadata → order_rules_violated;
//     customer.segment and customer.id → customer_rules_violated;
//     redemption.count.per_customer and redemption metadata →
//     redemption_rules_violated.
//   - Missing data: order.amount with no amount is false with
//     missing_amount (not evaluated as 0). Item rules evaluate an empty item
//     list normally (count 0, nothing matches, so $is_not passes); when such
//     a rule fails and there are no items the key is missing_order_items.
//     Customer rules (including redemption.count.per_customer) are false
//     with missing_customer when CustomerID is "", whatever the operator.
//     A metadata key that is absent or null is "not defined": $is, $in,
//     ordering and string operators are false, $is_not and $not_in true.
//   - redemption.count.per_customer compares CustomerRedemptions+1, the count
//     including the redemption being checked: $less_than_or_equal [1] means
//     "once per customer".
//   - Logic: rule keys, and, or, not (any case), parentheses; precedence
//     not > and > or. Empty logic joins all rules with "and"; rules not named
//     by a non-empty logic are validated but not evaluated; no rules at all
//     always pass. Keys are positive integers without leading zeros; at
//     most MaxRules (20).
//   - Reporting: when the expression is false, the rules that decided it are
//     those operands of each and/or whose value equals its result (the false
//     ones of a false "and", all of a false "or"); the smallest such key is
//     reported. A rule blamed through "not" (it held) reports its kind's
//     failure key, never a missing_* key. The message is the blamed rule's
//     own error.message (an extension: rules.N.error.message), else the
//     definition's error.message, else DefaultMessage(key).
//   - Nested "rules" are accepted only under order.items.* and product.id
//     (order.items.quantity, price, metadata per line; aggregated_quantity
//     and aggregated_amount over the matched lines); see cart.go.
//   - The cart, budget and count names, and the names accepted without
//     being enforced, are listed in names.go (Context.Count supplies counts).
//   - applicable_to accepts "product", "sku" and "products_collection"
//     entries with an id and the entry settings (effect, target, price,
//     limits, skip_initially, repeat). A product target matches every line
//     of that product (any SKU), a sku target only that SKU, a collection
//     the lines whose Collections hold it; ids compare with the aliases.
//   - Check on a definition that would fail Validate (bad logic, unknown
//     name) fails closed with redemption_rules_violated.
package validationrule

// Package formula parses and evaluates the discount formulas of the
// reference (amount_off_formula, percent_off_formula, unit_off_formula,
// fixed_amount_formula), e.g. `IF(ORDER_AMOUNT > 300;15;5)` or
// `IF(CUSTOMER_METADATA("tier") = "gold";20;10)`.
//
// The reference gives examples, not a grammar; this package accepts the
// language its examples use, and nothing else (docs/promotions.md
// "Discount formulas"):
//
//	expr    = or
//	or      = and { "OR" and }           (also OR(a;b;…))
//	and     = compare { "AND" compare }  (also AND(a;b;…))
//	compare = sum [ ("=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" | "contains") sum ]
//	sum     = product { ("+" | "-") product }
//	product = unary { ("*" | "/") unary }
//	unary   = [ "-" | "NOT" ] primary
//	primary = number | "string" | VARIABLE | FUNCTION "(" [ expr { ";" expr } ] ")" | "(" expr ")"
//
// Values are numbers (float64) or strings; comparisons of a number with a
// string compare the string's number when it reads as one. Amount
// variables are in the currency's main unit (ORDER_AMOUNT 300 is 30000
// cents); callers scale results (see Scale).
//
// It is bounded: a formula has at most MaxLength characters, MaxNodes
// nodes and MaxDepth levels of nesting; evaluation is a walk of that tree
// (no reflection, no loops over user data). Unknown variables and
// functions, and functions called with the wrong number of arguments,
// are parse errors, so a formula that parses can always be evaluated; a
// missing metadata value, a division by zero or a non-number result is
// an evaluation error (the caller then uses the static fallback value).
package formula

// Package jsonnum holds the service's rule for numbers in JSON text and a
// byte-level scanner that applies it without decoding the document.
//
// The rule (issue 34): a number literal without fraction or exponent must
// fit int64; any other literal must parse to a finite float64 (an
// underflow to zero is fine). 1e400, -1e400, 2^63 and 2^64 are refused;
// 9223372036854775807 and 1e-400 are accepted. Every transport (REST, the
// client API, GraphQL variables and literals) refuses a request that breaks
// the rule with a 400 naming the field, so nothing unreadable is stored:
// encoding/json cannot read an infinite float back, and a stored 1e400
// made every list of the resource answer 500.
//
// Check finds the first literal that breaks the rule; Repair rewrites the
// literals that are not finite float64 (stored before the rule existed) to
// the nearest finite value. The package imports neither ent nor HTTP, so
// ent/entdb, rest and graph share it.
package jsonnum

// Package validationrules holds validation rules as a resource
// (/v1/validation-rules): their create, read, update, delete and list,
// the checks a rule passes before it is stored (its language through
// graph/validationrule, its budget formulas, the catalogue objects it
// names), and their assignments to vouchers, campaigns and promotion
// tiers with the assignment lists. The core of graph/redemption reads a
// request's rules through RuleAssignments; this package imports no part
// of that core.
package validationrules

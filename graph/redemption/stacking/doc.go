// Package stacking holds a project's stacking rules: their management API
// (…/stacking-rules: list, read, create, update, delete, a deleted
// category leaving them), the rules the redemption engine applies
// (ProjectRules: the project's own, or discount.DefaultRules) with a
// per-process cache of them (ProjectRulesCache), and the stacking_rules
// object every validation echoes (RulesView). The core of
// graph/redemption imports it; it imports no part of that core.
package stacking

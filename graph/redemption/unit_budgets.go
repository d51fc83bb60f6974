package redemption

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/unitbudgetuse"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/formula"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// Persistent unit budgets (docs/promotions.md "Unit budgets"): an
// applicable_to entry's product_*_quantity_limit caps the item units
// discounted under it over every redemption of its scope (campaign or
// tier/voucher, optionally per customer, optionally per product of a
// collection entry). The units used are the sum of the budget's
// unit_budget_uses rows (one per redemption and budget); a rollback
// deletes the redemption's rows. A redemption with budgets takes the
// transactional path and locks each budget's key (sorted; after the
// voucher and tier rows) before reading what is used, so concurrent
// redemptions never discount more than the budget.

// entryBudget is what is left of one entry's budgets for this request.
type entryBudget struct {
	// keys are the entry-wide budgets' keys; left what the tightest leaves.
	keys    []string
	hasLeft bool
	left    int64
	// groupKeys are per product (in-collection budgets): its keys, and
	// groupLeft what the tightest of them leaves.
	groupKeys map[string][]string
	groupLeft map[string]int64
}

// budgetRef is one budget of an entry as this request meets it.
type budgetRef struct {
	budget  validationrule.UnitBudget
	key     string // without the product part for in-collection budgets
	limit   int64
	product string // in-collection: the product; "" otherwise
}

// hasBudgets reports whether any included entry of s has a unit budget.
func (s *redeemableState) hasBudgets() bool {
	for _, r := range s.rules {
		for _, en := range r.ApplicableTo.Included {
			if len(en.Budgets) > 0 {
				return true
			}
		}
	}
	return false
}

// loadBudgets works out, per redeemable of states that passed its checks
// and has budgets, what each entry's
// budgets leave; with lock (a redemption) the budgets' keys are locked
// first so that the units read stay true until the transaction ends.
func (e *evaluation) loadBudgets(ctx context.Context, lock bool, states []*redeemableState) error {
	refs := map[*redeemableState][][]budgetRef{}
	var keys []string
	for _, s := range states {
		if s.failure != nil || !s.hasBudgets() {
			continue
		}
		perEntry := e.budgetRefs(s)
		refs[s] = perEntry
		for _, rs := range perEntry {
			for _, r := range rs {
				keys = append(keys, r.fullKey())
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if lock {
		for _, k := range keys {
			if err := store.LockKey(ctx, "unit-budget:"+k); err != nil {
				return err
			}
		}
	}
	used, err := budgetUse(ctx, keys)
	if err != nil {
		return err
	}
	for s, perEntry := range refs {
		s.budgets = make([]entryBudget, len(perEntry))
		for k, rs := range perEntry {
			b := &s.budgets[k]
			for _, r := range rs {
				left := max(r.limit-used[r.fullKey()], 0)
				if r.product == "" {
					b.keys = append(b.keys, r.key)
					if !b.hasLeft || left < b.left {
						b.hasLeft, b.left = true, left
					}
					continue
				}
				if b.groupKeys == nil {
					b.groupKeys, b.groupLeft = map[string][]string{}, map[string]int64{}
				}
				old, seen := b.groupLeft[r.product]
				b.groupKeys[r.product] = append(b.groupKeys[r.product], r.fullKey())
				if !seen || left < old {
					b.groupLeft[r.product] = left
				}
			}
		}
	}
	return nil
}

// fullKey is the budget's key with its product, if any.
func (r budgetRef) fullKey() string {
	if r.product == "" {
		return r.key
	}
	return r.key + "|product:" + r.product
}

// budgetRefs lists, per included entry of s, the budgets it carries with
// their keys and limits (formulas evaluated). A per-customer budget
// without a customer leaves nothing (0 units): it cannot be attributed.
func (e *evaluation) budgetRefs(s *redeemableState) [][]budgetRef {
	var out [][]budgetRef
	for i, r := range s.rules {
		for _, en := range r.ApplicableTo.Included {
			var rs []budgetRef
			for _, b := range en.Budgets {
				limit, ok := e.budgetLimit(b)
				if !ok {
					continue
				}
				key := fmt.Sprintf("%s:%s|%s|%s:%s", b.Name(), s.budgetScope(b.Scope), s.ruleIDs[i], en.Object, en.ID)
				if b.PerCustomer {
					if e.customer == nil {
						limit = 0
						key += "|customer:"
					} else {
						key += "|customer:" + e.customer.ID
					}
				}
				if !b.InCollection {
					rs = append(rs, budgetRef{budget: b, key: key, limit: limit})
					continue
				}
				for _, p := range e.entryProducts(s, en) {
					rs = append(rs, budgetRef{budget: b, key: key, limit: limit, product: p})
				}
			}
			out = append(out, rs)
		}
	}
	return out
}

// budgetScope is the id a budget of scope counts under: the campaign (a
// voucher without campaign: the voucher), or the tier (for a voucher:
// the voucher).
func (s *redeemableState) budgetScope(scope string) string {
	objs := s.ruleObjects() // the voucher or tier, then its campaign
	if scope == validationrule.ScopeCampaign && len(objs) > 1 && objs[1] != "" {
		return objs[1]
	}
	return objs[0]
}

// budgetLimit is b's limit for this request: the formula's value when it
// has one (rounded, at least 0), else the static limit; ok false when
// neither gives one.
func (e *evaluation) budgetLimit(b validationrule.UnitBudget) (int64, bool) {
	if b.Formula != "" {
		if x, err := formula.Parse(b.Formula); err == nil { // checked when stored
			if n, err := x.Number(e.formulaEnv()); err == nil {
				return int64(math.Max(0, math.Min(math.Round(n), float64(discount.MaxAmount)))), true
			}
		}
	}
	return b.Limit, b.HasLimit
}

// entryProducts are the catalogue products of the order lines entry en
// matches (for in-collection budgets), in line order.
func (e *evaluation) entryProducts(s *redeemableState, en validationrule.Target) []string {
	var out []string
	if e.order == nil {
		return nil
	}
	for _, it := range e.order.Items {
		if p := budgetProduct(s, it); p != "" && en.Matches(s.ruleView(it)) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// budgetProduct is the product a line counts under in a per-product budget.
func budgetProduct(s *redeemableState, it discount.Item) string {
	v := s.ruleView(it)
	p, _ := canonical(v.ProductID, v.ProductAliases, "prod_")
	return p
}

// budgetUse sums the units used per budget key.
func budgetUse(ctx context.Context, keys []string) (map[string]int64, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Key string `json:"budget_key"`
		Sum *int64 `json:"sum"`
	}
	if err := c.UnitBudgetUse.Query().Where(unitbudgetuse.BudgetKeyIn(keys...)).GroupBy(unitbudgetuse.FieldBudgetKey).
		Aggregate(ent.Sum(unitbudgetuse.FieldUnits)).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("reading unit budgets: %w", err)
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		if r.Sum != nil {
			out[r.Key] = *r.Sum
		}
	}
	return out, nil
}

// applyBudget sets target t (entry k of s) to what its budgets leave.
func (s *redeemableState) applyBudget(k int, t *discount.Target) {
	if k >= len(s.budgets) {
		return
	}
	b := s.budgets[k]
	t.HasBudget, t.Budget = b.hasLeft, b.left
	if b.groupLeft != nil {
		t.GroupBudget = b.groupLeft
		t.GroupOf = func(it discount.Item) string { return budgetProduct(s, it) }
	}
}

package redemption

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/discount"
)

// The ledger of unit budgets (unit_budgets.go): what a redemption used,
// recorded with it and given back by its rollback.

// recordBudgetUse stores the units state i's outcome discounted under
// each budget of its entries, for redemption id.
func (w *writer) recordBudgetUse(ctx context.Context, i int, id string) error {
	s, out := w.e.states[i], w.e.outcomes[i]
	if len(s.budgets) == 0 || out.Status != discount.StatusApplicable || len(out.Result.Targets) != len(s.budgets) {
		return nil
	}
	units := map[string]int64{}
	for k, b := range s.budgets {
		tr := out.Result.Targets[k]
		for j, line := range tr.Lines {
			q := tr.Quantities[j]
			for _, key := range b.keys {
				units[key] += q
			}
			if b.groupKeys != nil {
				if line >= len(w.e.order.Items) {
					continue
				}
				for _, key := range b.groupKeys[budgetProduct(s, w.e.order.Items[line])] {
					units[key] += q
				}
			}
		}
	}
	var creates []*ent.UnitBudgetUseCreate
	keys := slices.Sorted(maps.Keys(units))
	for _, key := range keys {
		if units[key] > 0 {
			creates = append(creates, w.c.UnitBudgetUse.Create().SetRedemptionID(id).SetBudgetKey(key).SetUnits(units[key]))
		}
	}
	if len(creates) == 0 {
		return nil
	}
	if err := w.c.UnitBudgetUse.CreateBulk(creates...).Exec(ctx); err != nil {
		return fmt.Errorf("recording unit budget use: %w", err)
	}
	return nil
}

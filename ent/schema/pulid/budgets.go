package pulid

// PrefixUnitBudgetUse is one redemption's use of an applicable_to entry's
// persistent unit budget (product_*_quantity_limit; graph/redemption).
const PrefixUnitBudgetUse = "ubu_"

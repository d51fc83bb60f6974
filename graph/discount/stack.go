package discount

// Status of one redeemable in a stacked request.
type Status string

// Redeemable statuses.
const (
	StatusApplicable   Status = "APPLICABLE"
	StatusInapplicable Status = "INAPPLICABLE"
	StatusSkipped      Status = "SKIPPED"
)

// Keys of SKIPPED and INAPPLICABLE outcomes set by Stack.
const (
	KeyApplicableLimitExceeded   = "applicable_redeemables_limit_exceeded"
	KeyPrecedingValidationFailed = "preceding_validation_failed"
	KeyNoEffect                  = "no_effect"
	KeyInvalidOrder              = "invalid_order"
)

// Candidate is one redeemable of a stacked request.
type Candidate struct {
	Category  string    // the redeemable's category ID ("" none): the category rules and CATEGORY_HIERARCHY use it
	Hierarchy int       // its category's hierarchy, lower = applied first with CATEGORY_HIERARCHY (ties: request order; no category sorts last)
	Failure   string    // non-empty: known inapplicable before calculation, with this key
	Discount  *Discount // nil: no effect on the order amounts (e.g. a material loyalty reward)
	Eligible  Eligible  // lines the discount's item effects apply to (nil: all)
}

// Outcome is what happened to one candidate.
type Outcome struct {
	Status  Status
	Key     string // failure or skip key; "" when APPLICABLE
	Result  Result // what the candidate's discount gave (zero unless applied)
	Applied bool   // the candidate's Discount was applied to the order
}

// Stack applies the candidates to o in the rules' order and returns one
// Outcome per candidate, index-aligned with cs (request order), and whether
// the whole request is valid.
//
// In application order, a candidate is:
//   - SKIPPED "preceding_validation_failed" in ALL mode once one was INAPPLICABLE;
//   - INAPPLICABLE with its Failure key when it has one (also after the
//     applicable limit is reached: a known failure is always reported);
//   - SKIPPED "applicable_redeemables_limit_exceeded" once ApplicableLimit
//     candidates are APPLICABLE;
//   - SKIPPED by the category rules (categoryCounts.skip):
//     "exclusion_rules_not_met" when a candidate of an exclusive category is
//     APPLICABLE in the request and this one is neither exclusive nor joint,
//     "applicable_exclusive_redeemables_limit_exceeded",
//     "applicable_exclusive_redeemables_per_category_limit_exceeded" or
//     "applicable_redeemables_per_category_limit_exceeded";
//   - APPLICABLE without touching o when its Discount is nil;
//   - INAPPLICABLE "invalid_order" when Apply fails (o is unchanged);
//   - SKIPPED "no_effect" when its Discount gave nothing and added no units
//     and the no-effect rule for its category (NoEffectSkipCategories,
//     NoEffectRedeemAnywayCategories, else NoEffect) is SKIP, o being
//     restored to its state before it;
//   - APPLICABLE otherwise, with Applied set and Result its share.
//
// Exclusion is decided for the whole request, whatever the order: Stack
// first assumes that a candidate of an exclusive category without a known
// failure will be applied; when none ends APPLICABLE (it had no effect,
// was over a limit or failed on the order) the request is worked out again
// without exclusion.
//
// valid is, in ALL mode, no INAPPLICABLE candidate and, in PARTIAL mode, at
// least one APPLICABLE. When the request is not valid o is restored to its
// state before Stack: nothing is applied. RedeemablesLimit is not enforced
// here; see Rules.CheckRedeemables.
func Stack(o *Order, r Rules, cs []Candidate) (out []Outcome, valid bool) {
	r = r.normalized()
	excluding := r.mayExclude(cs)
	// The order to work out again from (used only when excluding): a copy
	// of the value is enough, Apply never changes lines in place.
	start := *o
	out, valid, exclusiveApplied := stack(o, r, cs, excluding)
	if excluding && !exclusiveApplied {
		*o = start
		out, valid, _ = stack(o, r, cs, false)
	}
	return out, valid
}

// stack is one pass of Stack; excluding says whether candidates neither
// exclusive nor joint are excluded. exclusiveApplied reports whether a
// candidate of an exclusive category ended APPLICABLE.
//
// The snapshots it restores from (the start, the state before each
// candidate) are copies of the Order value that share its lines: Apply
// gives o new lines rather than changing them, so no line is copied here.
func stack(o *Order, r Rules, cs []Candidate, excluding bool) (out []Outcome, valid, exclusiveApplied bool) {
	start := *o
	out = make([]Outcome, len(cs))
	applicable, failed := 0, false
	counts := newCategoryCounts()
	for _, i := range r.Order(cs) {
		c := cs[i]
		skip := ""
		switch {
		case failed && r.Mode == ModeAll:
			out[i] = Outcome{Status: StatusSkipped, Key: KeyPrecedingValidationFailed}
			continue
		case c.Failure != "":
			out[i] = Outcome{Status: StatusInapplicable, Key: c.Failure}
			failed = true
			continue
		case applicable >= r.ApplicableLimit:
			skip = KeyApplicableLimitExceeded
		default:
			skip = counts.skip(r, c, excluding)
		}
		if skip != "" {
			out[i] = Outcome{Status: StatusSkipped, Key: skip}
			continue
		}
		if c.Discount == nil {
			out[i] = Outcome{Status: StatusApplicable}
		} else {
			before := *o
			res, err := o.Apply(*c.Discount, r.eligible(c.Eligible))
			switch {
			case err != nil:
				out[i] = Outcome{Status: StatusInapplicable, Key: KeyInvalidOrder}
				failed = true
				continue
			case res.Total == 0 && res.AddedUnits == 0 && r.skipsNoEffect(c):
				*o = before
				out[i] = Outcome{Status: StatusSkipped, Key: KeyNoEffect}
				continue
			}
			out[i] = Outcome{Status: StatusApplicable, Result: res, Applied: true}
		}
		applicable++
		counts.count(r, c)
		exclusiveApplied = exclusiveApplied || r.exclusive(c)
	}
	if r.Mode == ModeAll {
		valid = !failed
	} else {
		valid = applicable > 0
	}
	if !valid {
		*o = start
	}
	return out, valid, exclusiveApplied
}

// eligible is a candidate's Eligible under the products application mode:
// with ONCE, lines already discounted in this request are left out.
func (r Rules) eligible(e Eligible) Eligible {
	if !r.ProductsOnce {
		return e
	}
	return func(it Item) bool { return it.AppliedDiscountAmount == 0 && e.accepts(it) }
}

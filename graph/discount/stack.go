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
	Hierarchy int       // category hierarchy, lower = applied first with CATEGORY_HIERARCHY (ties: request order; 0 = no category, sorts last)
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
//   - APPLICABLE without touching o when its Discount is nil;
//   - INAPPLICABLE "invalid_order" when Apply fails (o is unchanged);
//   - with NoEffect SKIP, SKIPPED "no_effect" when its Discount gave nothing
//     and added no units, o being restored to its state before it;
//   - APPLICABLE otherwise, with Applied set and Result its share.
//
// valid is, in ALL mode, no INAPPLICABLE candidate and, in PARTIAL mode, at
// least one APPLICABLE. When the request is not valid o is restored to its
// state before Stack: nothing is applied. RedeemablesLimit is not enforced
// here; see Rules.CheckRedeemables.
func Stack(o *Order, r Rules, cs []Candidate) (out []Outcome, valid bool) {
	r = r.normalized()
	start := o.Clone()
	out = make([]Outcome, len(cs))
	applicable, failed := 0, false
	for _, i := range r.Order(cs) {
		c := cs[i]
		switch {
		case failed && r.Mode == ModeAll:
			out[i] = Outcome{Status: StatusSkipped, Key: KeyPrecedingValidationFailed}
		case c.Failure != "":
			out[i] = Outcome{Status: StatusInapplicable, Key: c.Failure}
			failed = true
		case applicable >= r.ApplicableLimit:
			out[i] = Outcome{Status: StatusSkipped, Key: KeyApplicableLimitExceeded}
		case c.Discount == nil:
			out[i] = Outcome{Status: StatusApplicable}
			applicable++
		default:
			before := o.Clone()
			res, err := o.Apply(*c.Discount, c.Eligible)
			switch {
			case err != nil:
				out[i] = Outcome{Status: StatusInapplicable, Key: KeyInvalidOrder}
				failed = true
			case r.NoEffect == NoEffectSkip && res.Total == 0 && res.AddedUnits == 0:
				*o = *before
				out[i] = Outcome{Status: StatusSkipped, Key: KeyNoEffect}
			default:
				out[i] = Outcome{Status: StatusApplicable, Result: res, Applied: true}
				applicable++
			}
		}
	}
	if r.Mode == ModeAll {
		valid = !failed
	} else {
		valid = applicable > 0
	}
	if !valid {
		*o = *start
	}
	return out, valid
}

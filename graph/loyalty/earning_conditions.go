package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/internal/store"
	vrules "github.com/promoengine/promoengine/graph/validationrule"
)

// An earning's rules (earnings[].rules: {logic, "1": definition, …}, the
// validation rule language of graph/validationrule, checked when the rule
// is stored) are evaluated before its effects apply, against the event's
// context: the customer (id, metadata, segments), the order of a
// customer.order.paid trigger (amount, total, items, metadata) and the
// custom event's metadata. An earning whose rules fail gives nothing; the
// rule's other earnings are evaluated on their own (every earning whose
// rules pass applies, as before rules were evaluated). Rules that count
// redemptions or budgets have no redemption to count and are not
// enforced. The earning preview (examine_earning.go) evaluates them too.

// EarningFacts is what an event's earnings' rules are checked against;
// the customer's segments are read once, when a rule first needs them.
type EarningFacts struct {
	Cust          *ent.Customer
	Order         *ent.Order
	eventMetadata map[string]any
	segments      []string
	segLoaded     bool
}

// Passes reports whether e's rules (if any) hold for the facts.
func (f *EarningFacts) Passes(ctx context.Context, e jsonfield.Earning) (bool, error) {
	if len(e.Rules) < 2 { // none, or a logic without definitions
		return true, nil
	}
	def, err := vrules.Parse(e.Rules, "", nil)
	if err != nil {
		return false, nil // checked when stored; one that no longer parses gives nothing
	}
	rc := vrules.Context{CustomEventMetadata: f.eventMetadata, LinkedCustomer: true}
	if o := f.Order; o != nil {
		amount, total := o.Amount, o.TotalAmount
		rc.OrderAmount, rc.OrderInitialAmount, rc.OrderTotalAmount = &amount, &amount, &total
		rc.OrderMetadata, rc.OrderItems = o.Metadata, vrules.ItemsOfOrderLines(o.Items)
	}
	if f.Cust != nil {
		rc.CustomerID, rc.CustomerMetadata = f.Cust.ID, f.Cust.Metadata
		if !f.segLoaded {
			c, err := store.Client(ctx)
			if err != nil {
				return false, err
			}
			if f.segments, err = c.SegmentMember.Query().Where(segmentmember.CustomerID(f.Cust.ID)).
				Select(segmentmember.FieldSegmentID).Strings(ctx); err != nil {
				return false, fmt.Errorf("earning: reading customer segments: %w", err)
			}
			f.segLoaded = true
		}
		rc.CustomerSegments = f.segments
	}
	if def.Check(rc) != nil {
		return false, nil
	}
	return def.BundleViolation(rc.OrderItems) == nil, nil
}

package loyaltyv1

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/segmentmember"
	entrule "github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/graph/internal/store"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// An earning rule's validation_rule_id (reference §4, §8 step 3) is
// checked against the event's context before the rule gives points: the
// customer (id, metadata, segments), the order of an order.paid rule
// (amount, total, items, metadata) and the custom event's metadata, with
// the validation rule language the vouchers' rules use
// (graph/validationrule). A failing rule gives no points (and publishes no
// card through auto_join); the other rules of the event are not affected.
// Rules that count redemptions or budgets have no redemption to count here
// and are not enforced (Context.Count nil), as in a validation without one.
// A validation rule deleted since the earning rule was saved limits nothing
// (as a COIN reward's rule, graph/redemption/coin_rules.go).
//
// Manual additions (balance.go and its one-statement path,
// credit_statement.go) have no earning rule, so no validation rule can
// change their outcome.

// ruleGate checks earning rules' validation rules for one event: the
// rules and the customer's segments are read once per event.
type ruleGate struct {
	defs      map[string]*rules.Definition // nil value: the rule no longer exists
	segments  []string
	segLoaded bool
}

// passes reports whether r's validation rule (if any) holds for facts.
func (g *ruleGate) passes(ctx context.Context, r *ent.CampaignEarningRule, facts earningFacts) (bool, error) {
	if r.ValidationRuleID == nil || *r.ValidationRuleID == "" {
		return true, nil
	}
	def, err := g.definition(ctx, *r.ValidationRuleID)
	if err != nil || def == nil {
		return def == nil && err == nil, err
	}
	rc := rules.Context{CustomerID: facts.customerID, CustomerMetadata: facts.customerMetadata,
		OrderMetadata: facts.orderMetadata, OrderItems: facts.orderItems, CustomEventMetadata: facts.eventMetadata,
		LinkedCustomer: true}
	if facts.orderAmount != nil {
		amount := int64(*facts.orderAmount)
		rc.OrderAmount, rc.OrderInitialAmount = &amount, &amount
	}
	if facts.orderTotal != nil {
		total := int64(*facts.orderTotal)
		rc.OrderTotalAmount = &total
	}
	if facts.customerID != "" {
		if err := g.loadSegments(ctx, facts.customerID); err != nil {
			return false, err
		}
		rc.CustomerSegments = g.segments
	}
	if v := def.Check(rc); v != nil {
		return false, nil
	}
	return def.BundleViolation(rc.OrderItems) == nil, nil
}

// definition is the parsed validation rule id (nil: it no longer exists).
func (g *ruleGate) definition(ctx context.Context, id string) (*rules.Definition, error) {
	if d, ok := g.defs[id]; ok {
		return d, nil
	}
	if g.defs == nil {
		g.defs = map[string]*rules.Definition{}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	vr, err := c.ValidationRule.Query().Where(entrule.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		g.defs[id] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("earning: reading validation rule %s: %w", id, err)
	}
	msg, _ := vr.Error["message"].(string)
	// Checked when stored; one that no longer parses fails every check
	// (Check answers a violation for a definition it cannot compile).
	d, _ := rules.Parse(vr.Rules, msg, vr.ApplicableTo)
	g.defs[id] = &d
	return &d, nil
}

// loadSegments reads the customer's segments once.
func (g *ruleGate) loadSegments(ctx context.Context, customerID string) error {
	if g.segLoaded {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if g.segments, err = c.SegmentMember.Query().Where(segmentmember.CustomerID(customerID)).
		Select(segmentmember.FieldSegmentID).Strings(ctx); err != nil {
		return fmt.Errorf("earning: reading customer segments: %w", err)
	}
	g.segLoaded = true
	return nil
}

// orderRuleItems are an order's stored lines as the rule language reads them.
func orderRuleItems(items []map[string]any) []rules.Item { return rules.ItemsOfOrderLines(items) }

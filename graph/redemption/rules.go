package redemption

import (
	"context"
	"fmt"
	"maps"

	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/validationrule"
)

// The validation rules of a redeemable: checked against the context the
// minimal rule model needs (graph/validationrule).

// checkRules checks the validation rules assigned to the voucher and to
// its campaign; all must pass.
func (e *evaluation) checkRules(ctx context.Context, s *redeemableState) (*checkFailure, error) {
	if len(s.rules) == 0 {
		return nil, nil
	}
	rc, err := e.checkedContext(ctx, s)
	if err != nil {
		return nil, err
	}
	s.identifyBundle(rc.OrderItems) // bundles.go
	return e.firstViolation(s, &rc, s.rules, s.ruleIDs, s.subject())
}

// firstViolation checks rules (ids their ids) in order against rc and
// returns the failure of the first one violated, naming subject.
func (e *evaluation) firstViolation(s *redeemableState, rc *validationrule.Context, rules []validationrule.Definition, ids []string, subject string) (*checkFailure, error) {
	for i, r := range rules {
		if r.Uses("order.total_amount") && rc.OrderTotalAmount == nil {
			rc.OrderTotalAmount = e.totalAfter(s) // cart_rules.go
		}
		v := r.Check(*rc)
		if v == nil {
			v = r.BundleViolation(rc.OrderItems)
		}
		if e.countErr != nil {
			return nil, e.countErr
		}
		if v != nil {
			f := failure(v.Key, fmt.Sprintf("%s cannot be redeemed because of violated validation rules: %s", subject, ids[i]))
			f.message, f.customMessage = validationrule.DefaultMessage(v.Key), v.Custom
			return f, nil
		}
	}
	return nil, nil
}

// checkedContext is the context s's rules are checked against: what
// ruleContext gathers with the redemption's own values (rule_values.go).
func (e *evaluation) checkedContext(ctx context.Context, s *redeemableState) (validationrule.Context, error) {
	rc, err := e.ruleContext(ctx, s)
	if err != nil {
		return rc, err
	}
	return rc, e.redemptionValues(ctx, s, &rc)
}

// ruleContext gathers what rules are checked against; the customer's
// segments and redemption count are read only when a rule needs them.
func (e *evaluation) ruleContext(ctx context.Context, s *redeemableState) (validationrule.Context, error) {
	rc := validationrule.Context{RedemptionMetadata: e.req.metadata, APIKey: apiKeyOf(ctx),
		Count: func(name string) (int64, bool) { return e.ruleCount(ctx, s, name) }} // rule_counts.go
	if o := e.req.order; o != nil {
		rc.OrderMetadata = o.Metadata
		start := e.order // not yet discounted: checks run before Stack
		if o.Amount != nil || len(o.Items) > 0 {
			amount, initial := start.Amount, start.InitialAmount
			rc.OrderAmount, rc.OrderInitialAmount = &amount, &initial
		}
		for _, it := range start.Items {
			rc.OrderItems = append(rc.OrderItems, e.ruleItem(it))
		}
	}
	if e.customer == nil {
		return rc, nil
	}
	rc.CustomerID, rc.CustomerMetadata = e.customer.ID, e.customer.Metadata
	if in := e.req.customer; in != nil && len(in.Metadata) > 0 {
		// A validation does not store the request's customer data; its
		// metadata rules read what the request says over what is stored.
		merged := maps.Clone(e.customer.Metadata)
		if merged == nil {
			merged = map[string]any{}
		}
		maps.Copy(merged, in.Metadata)
		rc.CustomerMetadata = merged
	}
	// The customer's segments and redemption count cost a query each:
	// read only for the rules that look at them.
	var needSegments, needCount bool
	for _, def := range s.rules {
		seg, count := def.ReadsCustomerRecords()
		needSegments, needCount = needSegments || seg, needCount || count
	}
	if !needSegments && !needCount {
		return rc, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return rc, err
	}
	if needSegments && !e.segmentsLoaded {
		if e.segments, err = c.SegmentMember.Query().Where(segmentmember.CustomerID(e.customer.ID)).
			Select(segmentmember.FieldSegmentID).Strings(ctx); err != nil {
			return rc, fmt.Errorf("reading customer segments: %w", err)
		}
		e.segmentsLoaded = true
	}
	rc.CustomerSegments = e.segments
	if !needCount {
		return rc, nil
	}
	if objects := s.ruleObjects(); len(objects) == 0 || objects[0] == "" {
		return rc, nil // no redeemable (a qualification's shared context): nothing to count
	}
	of := redemption.VoucherID
	if s.tier != nil {
		of = redemption.RelatedObjectID
	}
	n, err := c.Redemption.Query().Where(redemption.CustomerID(e.customer.ID), of(s.ruleObjects()[0]),
		redemption.ObjectEQ(redemption.ObjectRedemption), redemption.StatusEQ(redemption.StatusSUCCEEDED)).Count(ctx)
	if err != nil {
		return rc, fmt.Errorf("counting customer redemptions: %w", err)
	}
	rc.CustomerRedemptions = int64(n)
	return rc, nil
}

// isPostgres reports whether the request runs on PostgreSQL.

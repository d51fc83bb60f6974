package redemption

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
	rules "github.com/promoengine/promoengine/graph/validationrule"
)

// The evaluation's entry point for qualifications (graph/qualification):
// many redeemables checked against one request, each computed on the
// order alone, in one pass — the tiers, vouchers, rules and categories
// are each read in one query, the rules checked in memory against one
// rule context. Nothing is locked or written.

// QualifyInput is what a qualification checks its candidates against.
type QualifyInput struct {
	Customer   *customer.CustomerInput
	Order      *OrderInput
	TrackingID *string
	Metadata   map[string]any
	// Candidates are the redeemables to check: promotion_tier ids and
	// voucher codes or ids.
	Candidates []*RedeemableInput
	// Tiers, when set, is where the tiers, their rules and categories
	// are read from (tiersnapshot.CurrentTierSnapshot); a tier it lacks is read by SQL.
	Tiers *tiersnapshot.TierSnapshot
	// DeferViews leaves a passing candidate's views (Result, Order,
	// ApplicableTo, InapplicableTo, Categories) to Qualified.Render: a
	// page shows a few of the candidates that pass.
	DeferViews bool
	// Omit leaves rule conditions out (they hold without being checked);
	// the per-customer redemption count is always left out (reference
	// §5.4: not checked by qualifications).
	Omit rules.Omit
}

// QualifyOutcome is the request-wide part of a qualification.
type QualifyOutcome struct {
	Customer      *ent.Customer
	TrackingID    *string
	Order         any // the request's order, computed without discounts
	StackingRules any
	// CartItems are the request's order lines as the rules see them.
	CartItems []rules.Item
	Items     []*Qualified
	// rules are the stacking rules (a category's stacking_rules_type).
	rules discount.Rules
}

// Qualified is one candidate's outcome.
type Qualified struct {
	Object  string
	ID      string
	Tier    *ent.PromotionTier // with its campaign; nil for a voucher
	Voucher *ent.Voucher       // with its campaign; nil for a tier
	// FailureKey is why it cannot be used ("" when its checks pass).
	FailureKey string
	// Applicable: the discount calculation of it alone applies it and it
	// changes the order (takes something off or adds free units).
	Applicable bool
	// Discount is what it alone takes off the order.
	Discount int64
	// Rules are its (and its campaign's) rule definitions and ids;
	// Omitted the keys of each rule's conditions left out.
	Rules   []rules.Definition
	RuleIDs []string
	Omitted [][]string
	// Result, Order, ApplicableTo, InapplicableTo, Categories are what a
	// validation shows of it, computed alone.
	Result         map[string]any
	Order          any
	ApplicableTo   any
	InapplicableTo any
	Categories     []any
	Metadata       map[string]any
	CampaignName   *string
	// render fills the views (nil: filled, or nothing to fill).
	render func()
}

// Render fills the views of a candidate evaluated with DeferViews (a
// no-op otherwise and the second time).
func (q *Qualified) Render() {
	if q.render != nil {
		q.render()
		q.render = nil
	}
}

// Qualify checks each candidate against the request on its own.
func Qualify(ctx context.Context, in QualifyInput) (*QualifyOutcome, error) {
	req := &redemptionRequest{order: in.Order, customer: in.Customer, trackingID: in.TrackingID,
		metadata: in.Metadata, expand: map[string]bool{}, redeemables: in.Candidates}
	if err := req.check(); err != nil {
		return nil, err
	}
	stackRules, err := stacking.ProjectRules(ctx)
	if err != nil {
		return nil, err
	}
	e := &evaluation{req: req, now: clock.Now(), rules: stackRules, tiers: in.Tiers}
	if err := e.loadEach(ctx); err != nil {
		return nil, err
	}
	if e.order, err = req.discountOrder(); err != nil {
		return nil, err
	}
	out := &QualifyOutcome{Customer: e.customer, TrackingID: e.trackingID, StackingRules: stacking.RulesView(stackRules),
		Order: newOrderView(e.order, in.Order, nil, e.customer), rules: stackRules}
	rc, err := e.qualifyRuleContext(ctx)
	if err != nil {
		return nil, err
	}
	out.CartItems = rc.OrderItems
	omit := func(c rules.Condition) bool {
		return rules.IsPerCustomerCount(c) || (in.Omit != nil && in.Omit(c))
	}
	for _, s := range e.states {
		q, err := e.qualifyOne(ctx, s, rc, omit)
		if err != nil {
			return nil, err
		}
		if !in.DeferViews {
			q.Render()
		}
		out.Items = append(out.Items, q)
	}
	return out, nil
}

// loadEach reads, nothing locked, what checking each redeemable on its
// own needs: the customer (looked up, never written), the vouchers, the
// tiers, their rules and categories — each in one query.
func (e *evaluation) loadEach(ctx context.Context) error {
	for _, load := range []func(context.Context) error{
		func(ctx context.Context) error { return e.loadCustomer(ctx, false) },
		func(ctx context.Context) error { return e.loadVouchers(ctx, false, false, nil) },
		func(ctx context.Context) error { return e.loadTiers(ctx, false) },
		e.loadRules, e.loadCart, e.loadUnitPrices, e.loadCategories,
	} {
		if err := load(ctx); err != nil {
			return err
		}
	}
	return nil
}

// qualifyRuleContext is the one rule context of the request. ruleContext
// reads the customer's segments and counts the redemptions of one
// redeemable: it is given an empty one (the count, left out here, is 0).
func (e *evaluation) qualifyRuleContext(ctx context.Context) (rules.Context, error) {
	if e.customer == nil {
		return e.ruleContext(ctx, &redeemableState{})
	}
	return e.ruleContext(ctx, &redeemableState{tier: &ent.PromotionTier{}})
}

// qualifyOne runs a candidate's checks (its rules with rc, leaving out
// what omit says) and, when they pass, its discount on the order alone.
func (e *evaluation) qualifyOne(ctx context.Context, s *redeemableState, rc rules.Context, omit rules.Omit) (*Qualified, error) {
	q := &Qualified{Object: redeemableObject(s.input), ID: s.code(), Tier: s.tier, Voucher: s.voucher,
		Rules: s.rules, RuleIDs: s.ruleIDs}
	// The checks other than the rules run as in a validation; the rules
	// are checked here, against the shared context.
	defs := s.rules
	s.rules = nil
	err := e.checkRedeemable(ctx, s)
	s.rules = defs
	if err != nil {
		return nil, fmt.Errorf("checking %s: %w", s.code(), err)
	}
	q.Omitted = make([][]string, len(defs))
	if err := e.redemptionValues(ctx, s, &rc); err != nil { // rule_values.go (rc is this candidate's copy)
		return nil, err
	}
	// A bundle is required when the scenario checks item rules (bundles.go).
	s.identifyBundle(rc.OrderItems)
	bundleRequired := !omit(rules.Condition{Name: rules.NameOrderItemsAny})
	for i, d := range defs {
		v, omitted := d.CheckOmitting(rc, omit)
		if v == nil && bundleRequired {
			v = d.BundleViolation(rc.OrderItems)
		}
		q.Omitted[i] = omitted
		if v != nil && s.failure == nil {
			s.failure = failure(v.Key, s.subject()+" cannot be redeemed because of violated validation rules: "+s.ruleIDs[i])
		}
	}
	if s.failure != nil {
		q.FailureKey = s.failure.key
		return q, nil
	}
	if err := e.loadBudgets(ctx, false, []*redeemableState{s}); err != nil { // unit_budgets.go
		return nil, err
	}
	o := new(discount.Order)
	*o = *e.order // shares the lines: the calculation gives o new ones when it changes them
	cand := e.candidateOf(s)
	outs, _ := discount.Stack(o, e.rules, []discount.Candidate{cand})
	res := outs[0].Result
	// Applicable: it applies and changes the cart (a discount that takes
	// nothing off, e.g. one limited to products not in the cart, is not).
	q.Applicable = outs[0].Status == discount.StatusApplicable && (cand.Discount == nil || res.Total > 0 || res.AddedUnits > 0)
	q.Discount = res.Total
	q.render = func() {
		q.Result = e.applicableResult(s, outs[0])
		q.Order = newOrderView(o, e.req.order, nil, e.customer)
		q.ApplicableTo, q.InapplicableTo = e.applicableTo(s, &res), s.inapplicableTo()
		q.Categories = s.categoriesView(e.rules)
	}
	r := &RedeemableResult{}
	if s.tier != nil {
		s.tierResult(r, false, e.rules)
	} else if v := s.voucher; v != nil {
		r.Metadata = v.Metadata
		if cmp := v.Edges.Campaign; cmp != nil {
			r.CampaignName = &cmp.Name
		}
	}
	q.Metadata, q.CampaignName = r.Metadata, r.CampaignName
	return q, nil
}

package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/campaignearningrule"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	pointspkg "github.com/promoengine/promoengine/graph/points"
)

// RuleEarning is the v1 programs' side of customer.LoyaltyEarning (wired
// next to the v2 area's loyalty.RuleEarning): a custom event fires the
// active rules whose event is its name, entering a segment the
// customer.segment.entered rules of that segment. Each program with a
// firing rule credits the customer's card (the card named by
// loyalty.code, when it is the program's), publishing one first when the
// customer has none and the program has auto_join. Every firing rule adds
// its points (reference U20) as one POINTS_ACCRUAL, in the event's
// transaction; the formula is loyalty.Proportional, shared with v2.
type RuleEarning struct{}

// EventRecorded implements customer.LoyaltyEarning.
func (RuleEarning) EventRecorded(ctx context.Context, ev *ent.CustomEvent, cust *ent.Customer, l *customer.EventLoyaltyInput) error {
	rules, err := firingRules(ctx, campaignearningrule.Event(ev.Type), nil)
	if err != nil || len(rules) == 0 {
		return err
	}
	code := ""
	if l != nil {
		code = l.Code
	}
	facts := earningFacts{customerID: cust.ID, customerMetadata: cust.Metadata, eventMetadata: ev.Metadata}
	details := map[string]any{"custom_event": map[string]any{"id": ev.ID, "type": ev.Type},
		"event": map[string]any{"id": ev.ID, "type": "customer.custom_event"}}
	return award(ctx, rules, cust, code, facts, details)
}

// SegmentsEntered implements customer.LoyaltyEarning.
func (RuleEarning) SegmentsEntered(ctx context.Context, cust *ent.Customer, segmentIDs []string) error {
	entered := map[string]bool{}
	for _, id := range segmentIDs {
		entered[id] = true
	}
	rules, err := firingRules(ctx, campaignearningrule.Event("customer.segment.entered"), func(r *ent.CampaignEarningRule) bool {
		id, _ := r.Segment["id"].(string)
		return entered[id]
	})
	if err != nil || len(rules) == 0 {
		return err
	}
	facts := earningFacts{customerID: cust.ID, customerMetadata: cust.Metadata}
	return award(ctx, rules, cust, "", facts, map[string]any{"event": eventDetails("customer.segment.entered")})
}

// firingRule is an active rule inside its validity now, with its program.
type firingRule struct {
	rule    *ent.CampaignEarningRule
	program *ent.Campaign
	formula *formula
}

// firingRules are the active rules matching which (and keep, when given)
// that are inside their dates (else their program's), on their weekdays,
// of active loyalty programs.
func firingRules(ctx context.Context, which predicate.CampaignEarningRule, keep func(*ent.CampaignEarningRule) bool) ([]firingRule, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	all, err := c.CampaignEarningRule.Query().Where(which, campaignearningrule.Active(true),
		campaignearningrule.Or(campaignearningrule.StartDateIsNil(), campaignearningrule.StartDateLTE(now)),
		campaignearningrule.Or(campaignearningrule.ExpirationDateIsNil(), campaignearningrule.ExpirationDateGT(now)),
	).Order(ent.Asc(campaignearningrule.FieldCreatedAt, campaignearningrule.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("earning: loading v1 rules: %w", err)
	}
	programs := map[string]*ent.Campaign{}
	var out []firingRule
	for _, r := range all {
		if keep != nil && !keep(r) {
			continue
		}
		if len(r.ValidityDayOfWeek) > 0 && !containsInt(r.ValidityDayOfWeek, int(now.Weekday())) {
			continue
		}
		cmp, ok := programs[r.CampaignID]
		if !ok {
			if cmp, err = c.Campaign.Get(ctx, r.CampaignID); err != nil && !ent.IsNotFound(err) {
				return nil, fmt.Errorf("earning: loading program: %w", err)
			}
			programs[r.CampaignID] = cmp
		}
		if cmp == nil || !cmp.Active || cmp.CampaignType != entcampaign.CampaignTypeLOYALTY_PROGRAM {
			continue
		}
		if r.StartDate == nil && cmp.StartDate != nil && cmp.StartDate.After(now) ||
			r.ExpirationDate == nil && cmp.ExpirationDate != nil && !cmp.ExpirationDate.After(now) {
			continue
		}
		f, err := parseFormula(r.Loyalty, eventKind(r.Event))
		if err != nil {
			continue // a rule stored before its checks; it earns nothing
		}
		out = append(out, firingRule{rule: r, program: cmp, formula: f})
	}
	return out, nil
}

// award credits each rule's points to the customer's card of its program.
func award(ctx context.Context, rules []firingRule, cust *ent.Customer, code string, facts earningFacts, details map[string]any) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	var gate ruleGate
	for _, fr := range rules {
		points := fr.formula.points(facts)
		if points <= 0 {
			continue
		}
		if ok, err := gate.passes(ctx, fr.rule, facts); err != nil || !ok {
			if err != nil {
				return err
			}
			continue // its validation rule fails: no points (earning_validation.go)
		}
		card, err := earningCard(ctx, fr.program, cust, code)
		if err != nil || card == nil {
			return err
		}
		locked, err := campaign.LockVoucher(ctx, c, card.ID)
		if err != nil {
			return err
		}
		d := map[string]any{"earning_rule": earningRuleDetails(fr.rule)}
		if points, err = inTier(ctx, locked, fr.rule.ID, points, d); err != nil {
			return err
		}
		if points <= 0 {
			continue
		}
		for k, v := range details {
			d[k] = v
		}
		if days, ok := pendingDays(fr.rule.PendingPoints); ok {
			if err := addPending(ctx, c, locked, fr.rule, points, days, d); err != nil {
				return err
			}
			continue
		}
		var exp *pointspkg.Expiry
		if fr.rule.ExpirationRules != nil {
			exp = &pointspkg.Expiry{Rules: fr.rule.ExpirationRules}
		}
		if _, _, err := book(ctx, c, locked, move{typ: vouchertransaction.TypePOINTS_ACCRUAL, points: points,
			details: d, source: "Automation", operation: "AUTOMATIC", expiry: exp}); err != nil {
			return err
		}
		if !customer.InRedemption(ctx) { // not inside a redemption's own order write (auto_redeem.go)
			a, err := autoRedeemAssignment(ctx, c, locked.CampaignID) // auto_redeem.go
			if err != nil {
				return err
			}
			if err := autoRedeem(ctx, c, locked, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// earningCard is the customer's card of the program: the one named by
// code when it belongs to the program (nil when code names another), else
// the card the customer holds, else (auto_join) a newly published one.
func earningCard(ctx context.Context, cmp *ent.Campaign, cust *ent.Customer, code string) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Voucher.Query().Where(voucher.CampaignID(cmp.ID), voucher.TypeEQ(jsonfield.VoucherTypeLoyaltyCard))
	if code != "" {
		q.Where(voucher.Code(code))
	} else {
		q.Where(voucher.HolderID(cust.ID))
	}
	v, err := q.First(ctx)
	if err == nil {
		if v.HolderID == nil {
			return nil, nil // points go to members' cards only
		}
		return v, nil
	}
	if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("earning: looking up card: %w", err)
	}
	if code != "" || !cmp.AutoJoin {
		return nil, nil
	}
	id := cust.ID
	return AddMember(ctx, cmp.ID, AddMemberInput{Customer: &customer.CustomerInput{ID: &id}})
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// OrderPaid implements customer.LoyaltyEarning: an order that has just
// become PAID (graph/order's Written claims that move once per order, so
// a retry or a second process earns nothing) runs every active order.paid
// rule of each program, adding its points to the customer's card.
func (RuleEarning) OrderPaid(ctx context.Context, o *ent.Order, cust *ent.Customer) error {
	rules, err := firingRules(ctx, campaignearningrule.Event("order.paid"), nil)
	if err != nil || len(rules) == 0 {
		return err
	}
	amount, total := float64(o.Amount), float64(o.TotalAmount)
	facts := earningFacts{customerID: cust.ID, customerMetadata: cust.Metadata, orderAmount: &amount, orderTotal: &total,
		orderMetadata: o.Metadata, orderItems: orderRuleItems(o.Items), orderLines: o.Items}
	if err := withCatalog(ctx, rules, facts.orderItems); err != nil { // earning_items.go
		return err
	}
	details := map[string]any{"order": map[string]any{"id": o.ID, "source_id": o.SourceID},
		"event": eventDetails("customer.order.paid")}
	return award(ctx, rules, cust, "", facts, details)
}

// inTier is what points become in the tier the card holds now (by its
// qualifying points, tier_periods.go): the tier's mapping of the rule, if any. The tier is recorded
// in the transaction's details (holder_loyalty_tier).
func inTier(ctx context.Context, card *ent.Voucher, ruleID string, points int64, details map[string]any) (int64, error) {
	if card.CampaignID == nil || card.LoyaltyCard == nil {
		return points, nil
	}
	qualifying, err := qualifyingPoints(ctx, card)
	if err != nil {
		return points, err
	}
	t, err := tierFor(ctx, *card.CampaignID, qualifying)
	if err != nil || t == nil {
		return points, err
	}
	details["holder_loyalty_tier"] = map[string]any{"id": t.ID, "name": t.Name}
	if m, err := parseMapping(t.EarningRules[ruleID]); err == nil {
		return m.apply(points), nil
	}
	return points, nil
}

package examine

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// The earning preview (POST /v2/loyalties/examine/earning-rules): which
// ACTIVE earning rules an event would fire for a customer's (or one
// member's) cards and how many points each would award, computed with the
// same effect arithmetic as the earning itself (effectPoints) and the
// rules' trigger limits read, not consumed. Nothing is written.

// Trigger events an examination may select.
const (
	triggerSegmentEntered = "customer.segment.entered"
	triggerCustomEvent    = "customer.custom_event"
)

// maxExaminedOrderItems is the documents' maxItems of order.items.
const maxExaminedOrderItems = 500

// ExamineEarningInput is the body of POST /v2/loyalties/examine/earning-rules.
type ExamineEarningInput struct {
	Trigger                *ExamineTrigger                `json:"trigger"`
	CustomerIdentification *loyalty.ExamineIdentification `json:"customer_identification"`
	CustomerOrderPaid      *ExamineOrderPaid              `json:"customer_order_paid"`
	CustomerSegmentEntered *ExamineContext                `json:"customer_segment_entered"`
	CustomerCustomEvent    *ExamineCustomEvent            `json:"customer_custom_event"`
}

// EarningExamination is the preview.
type EarningExamination struct {
	// Event is the examined trigger event; nil for ALL.
	Event        *string
	Customer     *ent.Customer
	EarningRules []*ent.EarningRule
	Memberships  []*EarningMembership
}

// EarningMembership is one membership's estimated earnings.
type EarningMembership struct {
	Member   *ent.LoyaltyMember
	Program  *ent.LoyaltyProgram
	Cards    []*CardEstimation
	Benefits []*BenefitEstimation
}

// CardEstimation is what a card would earn, in total and per rule.
type CardEstimation struct {
	Card   *ent.Card
	Points int64
	Rules  []*RuleEstimation
}

// RuleEstimation is one rule's points for a card.
type RuleEstimation struct {
	EarningRuleID string
	Points        int64
}

// BenefitEstimation is a benefit (incentive) the rules would give.
type BenefitEstimation struct {
	Benefit        *ent.Incentive
	EarningRuleIDs []string
}

// ExamineEarningRules previews what an event would earn.
func ExamineEarningRules(ctx context.Context, in ExamineEarningInput) (*EarningExamination, error) {
	event, err := validateExamineEarning(in)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cust, members, err := examinedMembers(ctx, c, in.CustomerIdentification)
	if err != nil {
		return nil, err
	}
	rules, err := loyalty.ActiveRules(ctx, examinedTrigger(event, in.CustomerCustomEvent))
	if err != nil {
		return nil, err
	}
	assumed := assumedCustomer(cust, in)
	order, err := assumedOrder(in.CustomerOrderPaid)
	if err != nil {
		return nil, err
	}
	out := &EarningExamination{Event: event, Customer: cust, EarningRules: []*ent.EarningRule{}, Memberships: []*EarningMembership{}}
	used := map[string]bool{}
	now := time.Now().UTC()
	for _, m := range members {
		em, err := examineMembership(ctx, c, m, rules, assumed, order, now, used)
		if err != nil {
			return nil, err
		}
		out.Memberships = append(out.Memberships, em)
	}
	for _, r := range rules {
		if used[r.ID] {
			out.EarningRules = append(out.EarningRules, r)
		}
	}
	return out, nil
}

// examineMembership estimates one member's cards and benefits; used
// collects the rules that gave anything.
func examineMembership(ctx context.Context, c *ent.Client, m *ent.LoyaltyMember, rules []*ent.EarningRule,
	cust *ent.Customer, o *ent.Order, now time.Time, used map[string]bool) (*EarningMembership, error) {
	p, err := loyaltybase.Program(ctx, m.ProgramID)
	if err != nil {
		return nil, err
	}
	cards, err := c.Card.Query().Where(card.MemberID(m.ID)).Order(card.ByCreatedAt()).Limit(maxExamined).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("examine: reading cards: %w", err)
	}
	em := &EarningMembership{Member: m, Program: p, Cards: []*CardEstimation{}, Benefits: []*BenefitEstimation{}}
	benefits := map[string]*BenefitEstimation{}
	facts := &loyalty.EarningFacts{Cust: cust, Order: o} // the earnings' rules (earning_conditions.go)
	for _, crd := range cards {
		ce := &CardEstimation{Card: crd, Rules: []*RuleEstimation{}}
		for _, rule := range rules {
			ok, err := loyalty.AllowedByLimits(ctx, rule, crd.ID, now)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			var pts int64
			for _, earning := range rule.Earnings {
				if ok, err := facts.Passes(ctx, earning); err != nil || !ok {
					if err != nil {
						return nil, err
					}
					continue
				}
				for _, effect := range earning.Effects {
					p, defID, err := loyalty.EffectPoints(ctx, effect, cust, o)
					if err != nil {
						return nil, err
					}
					if defID == nil || (crd.CardDefinitionID != nil && *crd.CardDefinitionID == *defID) {
						pts += p
					}
					if effect.Incentive != nil {
						if err := addBenefit(ctx, c, benefits, em, effect.Incentive.ID, rule.ID); err != nil {
							return nil, err
						}
						used[rule.ID] = true
					}
				}
			}
			if pts > 0 {
				ce.Points += pts
				ce.Rules = append(ce.Rules, &RuleEstimation{EarningRuleID: rule.ID, Points: pts})
				used[rule.ID] = true
			}
		}
		em.Cards = append(em.Cards, ce)
	}
	return em, nil
}

// addBenefit records that rule gives the incentive (once per rule).
func addBenefit(ctx context.Context, c *ent.Client, seen map[string]*BenefitEstimation, em *EarningMembership, id, ruleID string) error {
	b := seen[id]
	if b == nil {
		inc, err := c.Incentive.Get(ctx, id)
		if err := loyaltybase.NotFound(err, "incentive", id); err != nil {
			return err
		}
		b = &BenefitEstimation{Benefit: inc}
		seen[id] = b
		em.Benefits = append(em.Benefits, b)
	}
	for _, r := range b.EarningRuleIDs {
		if r == ruleID {
			return nil
		}
	}
	b.EarningRuleIDs = append(b.EarningRuleIDs, ruleID)
	return nil
}

// examinedTrigger matches the rules of the examined event (nil: every
// trigger); a SPECIFIC custom event with a schema_id matches only its rules.
func examinedTrigger(event *string, ce *ExamineCustomEvent) func(*jsonfield.EarningTrigger) bool {
	var schemaID string
	if ce != nil && ce.Specific != nil && ce.Specific.CustomEvent != nil && ce.Specific.CustomEvent.SchemaID != nil {
		schemaID = *ce.Specific.CustomEvent.SchemaID
	}
	return func(t *jsonfield.EarningTrigger) bool {
		isOrder := t.Event != nil && *t.Event == loyalty.TriggerOrderPaid
		if event == nil {
			return isOrder || t.Segment != nil || t.CustomEvent != nil
		}
		switch *event {
		case loyalty.TriggerOrderPaid:
			return isOrder
		case triggerSegmentEntered:
			return t.Segment != nil
		default:
			return t.CustomEvent != nil && (schemaID == "" || t.CustomEvent.SchemaID == schemaID)
		}
	}
}

// assumedCustomer is the customer with the context's metadata keys laid
// over the stored ones (a copy; nothing is saved).
func assumedCustomer(cust *ent.Customer, in ExamineEarningInput) *ent.Customer {
	var extra *ExamineMetadata
	switch {
	case in.CustomerOrderPaid != nil:
		extra = in.CustomerOrderPaid.Customer
	case in.CustomerSegmentEntered != nil:
		extra = in.CustomerSegmentEntered.Customer
	case in.CustomerCustomEvent != nil && in.CustomerCustomEvent.Specific != nil:
		extra = in.CustomerCustomEvent.Specific.Customer
	case in.CustomerCustomEvent != nil && in.CustomerCustomEvent.All != nil:
		extra = in.CustomerCustomEvent.All.Customer
	}
	if extra == nil || len(extra.Metadata) == 0 {
		return cust
	}
	copied := *cust
	copied.Metadata = maps.Clone(cust.Metadata)
	if copied.Metadata == nil {
		copied.Metadata = map[string]any{}
	}
	maps.Copy(copied.Metadata, extra.Metadata)
	return &copied
}

// assumedOrder is the context's order as an unsaved order (nil without one).
func assumedOrder(op *ExamineOrderPaid) (*ent.Order, error) {
	if op == nil || op.Order == nil {
		return nil, nil
	}
	in := op.Order
	if len(in.Items) > maxExaminedOrderItems {
		return nil, apperr.InvalidPayload("Property .customer_order_paid.order.items must have at most %d items", maxExaminedOrderItems)
	}
	amount, err := examinedAmount("amount", in.Amount)
	if err != nil {
		return nil, err
	}
	initial, err := examinedAmount("initial_amount", in.InitialAmount)
	if err != nil {
		return nil, err
	}
	discount, err := examinedAmount("discount_amount", in.DiscountAmount)
	if err != nil {
		return nil, err
	}
	if initial != 0 && amount == 0 {
		amount = initial
	}
	return &ent.Order{Amount: amount, TotalAmount: amount - discount, Items: in.Items, Metadata: in.Metadata}, nil
}

// examinedAmount reads an amount given as a number or a numeric string.
func examinedAmount(name string, v any) (int64, error) {
	if v == nil {
		return 0, nil
	}
	f, ok := loyalty.JSONNumber(v)
	if s, isString := v.(string); isString {
		parsed, err := strconv.ParseFloat(s, 64)
		f, ok = parsed, err == nil
	}
	if !ok || f < 0 || f > loyalty.MaxPoints {
		return 0, apperr.InvalidPayload("Property .customer_order_paid.order.%s must be a non-negative amount", name)
	}
	return int64(f), nil
}

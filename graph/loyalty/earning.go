package loyalty

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// RuleEarning is the LoyaltyEarning of the loyalty area: ACTIVE earning
// rules triggered by a custom event (trigger.custom_event.schema_id) or by
// entering a segment (trigger.segment.id) award points to cards, each award
// a card transaction written in the event's transaction.
//
// Which cards: the card named by the event's loyalty.code, else every card
// the customer holds as a program member. Which points: a `points` effect
// gives its value; an `incentive` effect of a POINTS incentive gives the
// incentive's value; a `points_proportional` effect of calculation type
// CUSTOMER_METADATA_VALUE gives floor(metadata[property] / every) × value.
// An effect naming a card_definition_id only reaches cards of that
// definition. A rule applies inside its start/end dates and daily
// validity_hours (UTC), and within its trigger_limits per card
// (trigger_limits.go). An order that becomes PAID fires the rules of
// trigger event customer.order.paid (OrderPaid, earning_order.go), whose
// proportional effects may count the order's amounts, metadata or lines.
type RuleEarning struct{}

// EventRecorded implements LoyaltyEarning.
func (RuleEarning) EventRecorded(ctx context.Context, ev *ent.CustomEvent, cust *ent.Customer, loyalty *customer.EventLoyaltyInput) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	schema, err := c.MetadataSchema.Query().
		Where(metadataschema.RelatedObject("event"), metadataschema.Name(ev.Type)).Only(ctx)
	if err != nil {
		return fmt.Errorf("earning: looking up event schema: %w", err)
	}
	if err := ActivatePendingOnEvent(ctx, cust.ID, schema.ID); err != nil { // card_pending_policies.go
		return err
	}
	rules, err := ActiveRules(ctx, func(t *jsonfield.EarningTrigger) bool {
		return t.CustomEvent != nil && t.CustomEvent.SchemaID == schema.ID
	})
	if err != nil || len(rules) == 0 {
		return err
	}
	cards, err := earningCards(ctx, cust, loyalty)
	if err != nil {
		return err
	}
	return award(ctx, rules, cards, &EarningFacts{Cust: cust, eventMetadata: ev.Metadata}, &ev.ID)
}

// SegmentsEntered implements LoyaltyEarning.
func (RuleEarning) SegmentsEntered(ctx context.Context, cust *ent.Customer, segmentIDs []string) error {
	entered := map[string]bool{}
	for _, id := range segmentIDs {
		entered[id] = true
	}
	rules, err := ActiveRules(ctx, func(t *jsonfield.EarningTrigger) bool {
		return t.Segment != nil && entered[t.Segment.ID]
	})
	if err != nil || len(rules) == 0 {
		return err
	}
	cards, err := earningCards(ctx, cust, nil)
	if err != nil {
		return err
	}
	return award(ctx, rules, cards, &EarningFacts{Cust: cust}, nil)
}

// ActiveRules returns the project's ACTIVE earning rules, inside their
// dates and validity hours now, whose trigger matches.
func ActiveRules(ctx context.Context, matches func(*jsonfield.EarningTrigger) bool) ([]*ent.EarningRule, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	all, err := c.EarningRule.Query().Where(
		earningrule.StatusEQ(earningrule.StatusACTIVE),
		earningrule.Or(earningrule.StartDateIsNil(), earningrule.StartDateLTE(now)),
		earningrule.Or(earningrule.EndDateIsNil(), earningrule.EndDateGT(now)),
	).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("earning: loading rules: %w", err)
	}
	var out []*ent.EarningRule
	for _, r := range all {
		if r.Trigger != nil && matches(r.Trigger) && withinHours(r.ValidityHours, now) {
			out = append(out, r)
		}
	}
	return out, nil
}

// withinHours reports whether now falls in one of the daily windows (no
// windows: always).
func withinHours(h *jsonfield.EarningValidityHours, now time.Time) bool {
	if h == nil || len(h.Daily) == 0 {
		return true
	}
	clock := now.Format("15:04")
	for _, d := range h.Daily {
		for _, day := range d.DaysOfWeek {
			if day == int(now.Weekday()) && clock >= d.StartTime && clock < d.EndTime {
				return true
			}
		}
	}
	return false
}

// earningCards are the cards an award goes to: the one named by code
// (404 when unknown), else the customer's member cards.
func earningCards(ctx context.Context, cust *ent.Customer, loyalty *customer.EventLoyaltyInput) ([]*ent.Card, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if loyalty != nil && loyalty.Code != "" {
		crd, err := c.Card.Query().Where(card.Or(card.Code(loyalty.Code), card.ID(loyalty.Code))).First(ctx)
		if err := loyaltybase.NotFound(err, "card", loyalty.Code); err != nil {
			return nil, err
		}
		return []*ent.Card{crd}, nil
	}
	cards, err := c.Card.Query().Where(card.HasMemberWith(loyaltymember.CustomerID(cust.ID))).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("earning: loading the customer's cards: %w", err)
	}
	return cards, nil
}

// award applies every effect of every rule to the matching cards, within
// each rule's trigger limits per card; o is the order that triggered
// them, if any (order-based proportional effects need it).
func award(ctx context.Context, rules []*ent.EarningRule, cards []*ent.Card, facts *EarningFacts, sourceID *string) error {
	cust, o := facts.Cust, facts.Order
	now := time.Now().UTC()
	for _, rule := range rules {
		reason := "Earning rule " + rule.ID
		var allowed []*ent.Card
		for _, crd := range cards {
			ok, err := AllowedByLimits(ctx, rule, crd.ID, now)
			if err != nil {
				return err
			}
			if ok {
				allowed = append(allowed, crd)
			}
		}
		for _, earning := range rule.Earnings {
			if ok, err := facts.Passes(ctx, earning); err != nil || !ok { // earning_conditions.go
				if err != nil {
					return err
				}
				continue
			}
			for _, effect := range earning.Effects {
				points, defID, err := EffectPoints(ctx, effect, cust, o)
				if err != nil {
					return err
				}
				if points <= 0 {
					continue
				}
				for _, crd := range allowed {
					if defID != nil && (crd.CardDefinitionID == nil || *crd.CardDefinitionID != *defID) {
						continue
					}
					if small, err := belowMinimumSpend(ctx, crd, o); err != nil || small {
						if err != nil {
							return err
						}
						continue // the definition's SPENDING limit (earning_limits.go)
					}
					on, err := pendingUntil(ctx, crd, now) // a pending period (card_pending.go)
					if err != nil {
						return err
					}
					expiration, err := awardExpiration(ctx, effect, crd)
					if err != nil {
						return err
					}
					if !on.IsZero() {
						if err := addCardPending(ctx, crd, points, on, rule.ID, sourceID, expiration); err != nil {
							return err
						}
						continue
					}
					if _, err := BookCardPoints(ctx, crd.ID, CardMove{Points: points, Reason: &reason, SourceID: sourceID,
						earningRuleID: &rule.ID, expiration: expiration}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

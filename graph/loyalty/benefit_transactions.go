package loyalty

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// A member's benefit transactions (GET …/members/{memberId}/benefits/
// transactions): the fulfilments of benefits (incentives) the member's
// cards received. Earning fulfils a POINTS benefit by a card transaction
// of the rule that names it, so the list is read from those card
// transactions (no table of its own): each card transaction of a member's
// card whose earning rule has an incentive effect is one APPROVED
// FULFILLMENT of the rule's (first) incentive. MATERIAL and DIGITAL
// benefits are not fulfilled by anything yet, so they never appear.

// BenefitTransaction is one benefit fulfilment.
type BenefitTransaction struct {
	// CardTransaction is the points move that fulfilled it; its id is
	// the benefit transaction's id.
	CardTransaction *ent.CardTransaction
	BenefitID       string
	ProgramID       string
	MemberID        string
}

// BenefitTransactionPage is a page of a member's benefit transactions.
type BenefitTransactionPage struct {
	Data    []*BenefitTransaction
	HasMore bool
}

// MemberBenefitTransactions lists a member's benefit fulfilments, newest
// first unless p.Asc.
func MemberBenefitTransactions(ctx context.Context, programID, memberID string, p loyaltybase.PageInput) (*BenefitTransactionPage, error) {
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	benefitOf, err := incentiveRules(ctx, c)
	if err != nil {
		return nil, err
	}
	ruleIDs := make([]string, 0, len(benefitOf))
	for id := range benefitOf {
		ruleIDs = append(ruleIDs, id)
	}
	ofMember := []predicate.CardTransaction{cardtransaction.HasCardWith(card.MemberID(m.ID)), cardtransaction.EarningRuleIDIn(ruleIDs...)}
	rows, more, err := loyaltybase.KeysetPage(p, func(after string) (time.Time, error) {
		t, err := c.CardTransaction.Query().Where(cardtransaction.ID(after)).Where(ofMember...).Only(ctx)
		if err != nil {
			return time.Time{}, err
		}
		return t.CreatedAt, nil
	}, func(keys []predicate.CardTransaction, order []cardtransaction.OrderOption, n int) ([]*ent.CardTransaction, error) {
		return c.CardTransaction.Query().Where(ofMember...).Where(keys...).Order(order...).Limit(n).All(ctx)
	})
	if err != nil {
		return nil, err
	}
	out := &BenefitTransactionPage{Data: make([]*BenefitTransaction, len(rows)), HasMore: more}
	for i, t := range rows {
		out.Data[i] = &BenefitTransaction{CardTransaction: t, BenefitID: benefitOf[*t.EarningRuleID], ProgramID: m.ProgramID, MemberID: m.ID}
	}
	return out, nil
}

// incentiveRules maps the project's earning rules (deleted ones too: their
// fulfilments stay) that give an incentive to that incentive's id.
func incentiveRules(ctx context.Context, c *ent.Client) (map[string]string, error) {
	rules, err := c.EarningRule.Query().Select(earningrule.FieldID, earningrule.FieldEarnings).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading earning rules: %w", err)
	}
	out := map[string]string{}
	for _, r := range rules {
		for _, e := range r.Earnings {
			for _, eff := range e.Effects {
				if eff.Incentive != nil && out[r.ID] == "" {
					out[r.ID] = eff.Incentive.ID
				}
			}
		}
	}
	return out, nil
}

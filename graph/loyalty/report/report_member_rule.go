package report

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// RuleCountReport is one period of a member's earning-rule report: how
// many times the rule awarded the member's cards.
type RuleCountReport struct {
	Date  string
	Count int
}

// MemberEarningRuleReport counts, per period of r, the card transactions
// the earning rule made on the member's cards (one COUNT per period, the
// range bounded like every report).
func MemberEarningRuleReport(ctx context.Context, programID, memberID, ruleID string, r ReportRange) ([]*RuleCountReport, error) {
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	if _, err := loyaltybase.EarningRule(ctx, ruleID); err != nil {
		return nil, err
	}
	ps, err := r.periods()
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*RuleCountReport, len(ps))
	for i, p := range ps {
		n, err := c.CardTransaction.Query().Where(cardtransaction.HasCardWith(card.MemberID(m.ID)),
			cardtransaction.EarningRuleID(ruleID), cardtransaction.CreatedAtGTE(p.From), cardtransaction.CreatedAtLT(p.To)).Count(ctx)
		if err != nil {
			return nil, fmt.Errorf("counting rule awards: %w", err)
		}
		out[i] = &RuleCountReport{Date: p.From.Format(time.DateOnly), Count: n}
	}
	return out, nil
}

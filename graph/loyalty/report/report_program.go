package report

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Program reports (GET /v2/loyalties/programs/{programId}/reports/…): the
// card reports' pattern (reports.go) over all the program's cards. A daily
// report takes the same bounded range (at most 90 periods, 400 otherwise)
// and runs one aggregate per period (per card definition for spending); a
// summary runs the same aggregate once over all time. Rows are per card
// definition or per earning rule that has transactions: bounded by the
// project's definitions and rules, never by its cards or transactions.

// SpendingReport is a row of the program spending report: points spent on
// rewards (order payments do not exist yet: 0) by the cards of one card
// definition. Date is "" in the summary.
type SpendingReport struct {
	Date             string
	CardDefinitionID string
	Success, Points  int64
}

// RuleReport is a row of the program earning-rules report: how many card
// transactions the rule made (its successes; failures are not recorded)
// and the points they moved. Date is "" in the summary.
type RuleReport struct {
	Date          string
	EarningRuleID string
	Count, Points int64
}

// ProgramSpendingReport sums the program's reward spending per period of
// r (nil: the all-time summary) and card definition.
func ProgramSpendingReport(ctx context.Context, programID string, r *ReportRange) ([]*SpendingReport, error) {
	c, ps, defs, err := programDefinitionReport(ctx, programID, r)
	if err != nil {
		return nil, err
	}
	var out []*SpendingReport
	for _, p := range ps {
		for _, def := range defs {
			var sums []struct {
				Count int64  `json:"count"`
				Sum   *int64 `json:"sum"` // NULL over no rows
			}
			err := c.CardTransaction.Query().Where(p.where(cardtransaction.HasCardWith(card.ProgramID(programID), card.CardDefinitionID(def)),
				cardtransaction.TypeEQ(cardtransaction.TypePOINTS_SPENT_ON_REWARD))...).
				Aggregate(ent.As(ent.Count(), "count"), ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
			if err != nil {
				return nil, fmt.Errorf("summing spending: %w", err)
			}
			row := &SpendingReport{Date: p.label, CardDefinitionID: def}
			if len(sums) == 1 && sums[0].Sum != nil {
				row.Success, row.Points = sums[0].Count, -*sums[0].Sum
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// ProgramEarningRulesReport counts the program's card transactions per
// earning rule per period of r (nil: the all-time summary); a rule
// without transactions in a period has no row.
func ProgramEarningRulesReport(ctx context.Context, programID string, r *ReportRange) ([]*RuleReport, error) {
	c, ps, err := programReport(ctx, programID, r)
	if err != nil {
		return nil, err
	}
	var out []*RuleReport
	for _, p := range ps {
		var sums []struct {
			RuleID string `json:"earning_rule_id"`
			Count  int64  `json:"count"`
			Sum    int64  `json:"sum"`
		}
		err := c.CardTransaction.Query().Where(p.where(cardtransaction.HasCardWith(card.ProgramID(programID)),
			cardtransaction.EarningRuleIDNotNil())...).
			GroupBy(cardtransaction.FieldEarningRuleID).
			Aggregate(ent.As(ent.Count(), "count"), ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
		if err != nil {
			return nil, fmt.Errorf("counting earning rule transactions: %w", err)
		}
		for _, s := range sums {
			out = append(out, &RuleReport{Date: p.label, EarningRuleID: s.RuleID, Count: s.Count, Points: s.Sum})
		}
	}
	return out, nil
}

// EarningsReport is a row of the program points-earnings report: the
// points an earning rule credited to the cards of one card definition
// (pending points do not exist on v2 cards yet: 0). Date is "" in the
// summary.
type EarningsReport struct {
	Date, EarningRuleID, CardDefinitionID string
	Count, Points                         int64
}

// ProgramPointsEarningsReport sums the points each earning rule credited
// per period of r (nil: the all-time summary) and card definition.
func ProgramPointsEarningsReport(ctx context.Context, programID string, r *ReportRange) ([]*EarningsReport, error) {
	c, ps, defs, err := programDefinitionReport(ctx, programID, r)
	if err != nil {
		return nil, err
	}
	var out []*EarningsReport
	for _, p := range ps {
		for _, def := range defs {
			var sums []struct {
				RuleID string `json:"earning_rule_id"`
				Count  int64  `json:"count"`
				Sum    int64  `json:"sum"`
			}
			err := c.CardTransaction.Query().Where(p.where(cardtransaction.HasCardWith(card.ProgramID(programID), card.CardDefinitionID(def)),
				cardtransaction.EarningRuleIDNotNil(), cardtransaction.TypeEQ(cardtransaction.TypePOINTS_ADDITION))...).
				GroupBy(cardtransaction.FieldEarningRuleID).
				Aggregate(ent.As(ent.Count(), "count"), ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
			if err != nil {
				return nil, fmt.Errorf("summing points earned: %w", err)
			}
			for _, s := range sums {
				out = append(out, &EarningsReport{Date: p.label, EarningRuleID: s.RuleID, CardDefinitionID: def, Count: s.Count, Points: s.Sum})
			}
		}
	}
	return out, nil
}

// programDefinitionReport is programReport with the card definitions of
// the program's cards (a few per program).
func programDefinitionReport(ctx context.Context, programID string, r *ReportRange) (*ent.Client, []reportPeriod, []string, error) {
	c, ps, err := programReport(ctx, programID, r)
	if err != nil {
		return nil, nil, nil, err
	}
	var defs []string
	if err := c.Card.Query().Where(card.ProgramID(programID), card.CardDefinitionIDNotNil()).Unique(true).
		Select(card.FieldCardDefinitionID).Scan(ctx, &defs); err != nil {
		return nil, nil, nil, fmt.Errorf("listing the program's card definitions: %w", err)
	}
	return c, ps, defs, nil
}

// reportPeriod is one period of a program report: [from, to) and its
// label, or the whole history (summary: no bounds, label "").
type reportPeriod struct {
	from, to *time.Time
	label    string
}

// where adds the period's bounds to ps.
func (p reportPeriod) where(ps ...predicate.CardTransaction) []predicate.CardTransaction {
	if p.from != nil {
		ps = append(ps, cardtransaction.CreatedAtGTE(*p.from), cardtransaction.CreatedAtLT(*p.to))
	}
	return ps
}

// programReport checks the program (404) and the range, and cuts it into
// periods (r nil: one unbounded period).
func programReport(ctx context.Context, programID string, r *ReportRange) (*ent.Client, []reportPeriod, error) {
	if _, err := loyaltybase.Program(ctx, programID); err != nil {
		return nil, nil, err
	}
	out := []reportPeriod{{}}
	if r != nil {
		ps, err := r.periods()
		if err != nil {
			return nil, nil, err
		}
		out = make([]reportPeriod, len(ps))
		for i, p := range ps {
			out[i] = reportPeriod{from: &p.From, to: &p.To, label: p.From.Format(time.DateOnly)}
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, nil, err
	}
	return c, out, nil
}

package report

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Points reports (GET …/reports/*): sums of the stored card transactions
// per period of a date range. The range is bounded per resolution as the
// documents say — at most 90 days, 12 weeks, 12 months or 4 quarters — so
// a report has at most 90 rows, each one aggregate query (SUM … GROUP BY
// type, earning rule) over the indexed (card_id, created_at) rows of its period; a
// longer range is a 400 and nothing grows without bound.

// ReportRange is a report's query: start_date and end_date (YYYY-MM-DD,
// both included, UTC) and resolution day, week, month or quarter.
type ReportRange struct {
	StartDate  string `json:"start_date"`
	EndDate    string `json:"end_date"`
	Resolution string `json:"resolution"`
}

// maxPeriods is the longest range per resolution.
var maxPeriods = map[string]int{"day": 90, "week": 12, "month": 12, "quarter": 4}

// period is one row's [From, To) and its label (the first day).
type period struct{ From, To time.Time }

// periods checks the range and cuts it into periods.
func (r ReportRange) periods() ([]period, error) {
	start, err1 := time.Parse(time.DateOnly, r.StartDate)
	end, err2 := time.Parse(time.DateOnly, r.EndDate)
	if err1 != nil || err2 != nil {
		return nil, apperr.InvalidQueryParams("Query parameters start_date and end_date are required dates (YYYY-MM-DD)")
	}
	limit, ok := maxPeriods[r.Resolution]
	if !ok {
		return nil, apperr.InvalidQueryParams("Query parameter resolution must be day, week, month or quarter, got %q", r.Resolution)
	}
	if end.Before(start) {
		return nil, apperr.InvalidQueryParams("Query parameter end_date must not be before start_date")
	}
	next := func(t time.Time) time.Time {
		switch r.Resolution {
		case "day":
			return t.AddDate(0, 0, 1)
		case "week":
			return t.AddDate(0, 0, 7)
		case "month":
			return t.AddDate(0, 1, 0)
		}
		return t.AddDate(0, 3, 0)
	}
	stop := end.AddDate(0, 0, 1)
	var out []period
	for t := start; t.Before(stop); t = next(t) {
		if len(out) == limit {
			return nil, apperr.InvalidQueryParams("The range may span at most %d periods of resolution %s", limit, r.Resolution)
		}
		to := next(t)
		if to.After(stop) {
			to = stop
		}
		out = append(out, period{From: t, To: to})
	}
	return out, nil
}

// CardDailyReport is one period of a card's points report.
type CardDailyReport struct {
	Date                                              string
	Total, Earned, Added, Subtracted, Spent, Refunded int64
}

// CardReport sums a member's card's transactions per period of r:
// earned (additions by an earning rule), added (other additions),
// subtracted (removals), spent (on rewards), refunded, and total (the net
// change).
func CardReport(ctx context.Context, programID, memberID, cardID string, r ReportRange) ([]*CardDailyReport, error) {
	crd, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID)
	if err != nil {
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
	out := make([]*CardDailyReport, len(ps))
	for i, p := range ps {
		var sums []struct {
			Type   string  `json:"type"`
			RuleID *string `json:"earning_rule_id"`
			Sum    int64   `json:"sum"`
		}
		err := c.CardTransaction.Query().Where(cardtransaction.CardID(crd.ID), cardtransaction.CreatedAtGTE(p.From),
			cardtransaction.CreatedAtLT(p.To)).
			GroupBy(cardtransaction.FieldType, cardtransaction.FieldEarningRuleID).
			Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums)
		if err != nil {
			return nil, fmt.Errorf("summing card transactions: %w", err)
		}
		row := &CardDailyReport{Date: p.From.Format(time.DateOnly)}
		for _, s := range sums {
			row.Total += s.Sum
			switch cardtransaction.Type(s.Type) {
			case cardtransaction.TypePOINTS_ADDITION:
				if s.RuleID != nil {
					row.Earned += s.Sum
				} else {
					row.Added += s.Sum
				}
			case cardtransaction.TypePOINTS_REMOVAL:
				row.Subtracted -= s.Sum
			case cardtransaction.TypePOINTS_SPENT_ON_REWARD:
				row.Spent -= s.Sum
			case cardtransaction.TypePOINTS_REFUNDED:
				row.Refunded += s.Sum
			}
		}
		out[i] = row
	}
	return out, nil
}

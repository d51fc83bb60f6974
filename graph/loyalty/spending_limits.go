package loyalty

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Spending limits of a v2 card definition (`spending_limits`): a card may
// spend at most global.limits[0] — SPENDING_BASED {max} points in all, or
// TIME_BASED {points.max} in the current calendar DAY/WEEK/MONTH/QUARTER/
// YEAR (UTC; weeks start on Monday) — and at most transactions.limits[0]
// POINTS {max} in one transaction. A card's spendings are its points spent
// on orders and rewards less what was given back (order payments returned,
// reward purchases refunded). The check runs under the card's row lock
// (lockedCard), after which the sums read the committed spendings of every
// earlier payment, so concurrent payments never pass a limit together.

// Spending limit rejections (order transactions' details.rejection.reason).
const (
	rejectGlobalLimit      = "GLOBAL_SPENDING_LIMIT_EXCEEDED"
	rejectTransactionLimit = "TRANSACTION_SPENDING_LIMIT_EXCEEDED"
)

// spendingRejection is why a spending passes a limit, with the
// documents' details ({type, limit[, spendings]}).
type spendingRejection struct {
	Reason  string
	Details map[string]any
}

// CheckSpendingLimits tells whether spending points from the (locked)
// card passes one of the definition's limits: nil when it does not.
func CheckSpendingLimits(ctx context.Context, def *ent.CardDefinition, cardID string, points int64) (*spendingRejection, error) {
	l := CardSettingsOf(def).SpendingLimits // card_settings.go: checked when stored
	if t := l.Transactions; t != nil && t.Type == "LIMITED" {
		for _, lim := range t.Limits {
			if lim.Type == "POINTS" && lim.Max != nil && points > *lim.Max {
				return &spendingRejection{Reason: rejectTransactionLimit, Details: map[string]any{"type": lim.Type, "limit": *lim.Max}}, nil
			}
		}
	}
	if l.Global == nil || l.Global.Type != "LIMITED" {
		return nil, nil
	}
	for _, lim := range l.Global.Limits {
		var since *time.Time
		var most int64
		switch {
		case lim.Type == "SPENDING_BASED" && lim.Max != nil:
			most = *lim.Max
		case lim.Type == "TIME_BASED" && lim.Points != nil && lim.Period != nil:
			unit, _ := lim.Period.CurrentPeriod["unit"].(string)
			if !periodUnits[unit] {
				continue // an unknown unit limits nothing
			}
			start := periodStart(clock.At(ctx), unit) // trigger_limits.go
			since, most = &start, lim.Points.Max
		default:
			continue
		}
		spent, err := cardSpendings(ctx, cardID, since)
		if err != nil {
			return nil, err
		}
		if spent+points > most {
			return &spendingRejection{Reason: rejectGlobalLimit,
				Details: map[string]any{"type": lim.Type, "limit": most, "spendings": spent + points}}, nil
		}
	}
	return nil, nil
}

// spendingTypes are the card transactions that spend points and give them
// back.
var spendingTypes = []cardtransaction.Type{cardtransaction.TypePOINTS_SPENT_ON_ORDER,
	cardtransaction.TypePOINTS_SPENT_ON_REWARD, cardtransaction.TypePOINTS_RETURNED, cardtransaction.TypePOINTS_REFUNDED}

// cardSpendings is the points the card spent (since a time, when given)
// less what was given back: one SUM over its transactions.
func cardSpendings(ctx context.Context, cardID string, since *time.Time) (int64, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return 0, err
	}
	q := c.CardTransaction.Query().Where(cardtransaction.CardID(cardID), cardtransaction.TypeIn(spendingTypes...))
	if since != nil {
		q = q.Where(cardtransaction.CreatedAtGTE(*since))
	}
	var sums []struct {
		Sum int64 `json:"sum"`
	}
	if err := q.Aggregate(ent.As(ent.Sum(cardtransaction.FieldAmount), "sum")).Scan(ctx, &sums); err != nil {
		return 0, fmt.Errorf("summing card spendings: %w", err)
	}
	if len(sums) == 0 {
		return 0, nil
	}
	return -sums[0].Sum, nil // spent amounts are negative, returns positive
}

// PurchaseWithinLimits locks the card a reward purchase spends from (after
// the assignment's stock row, the purchases' lock order) and refuses the
// purchase when its points would pass one of the card definition's
// spending limits: 423 with the rejection reason as the key in lower case
// (global_spending_limit_exceeded, transaction_spending_limit_exceeded) —
// the documents answer a purchase the limits prevent synchronously with a
// 423 and store nothing, unlike an order payment's REJECTED transaction.
func PurchaseWithinLimits(ctx context.Context, cardID, defID string, points int64) error {
	if _, err := LockedCard(ctx, cardID); err != nil {
		return err
	}
	def, err := loyaltybase.CardDefinition(ctx, defID) // in use by the assignment: cannot be deleted
	if err != nil {
		return err
	}
	over, err := CheckSpendingLimits(ctx, def, cardID, points)
	if err != nil || over == nil {
		return err
	}
	msg := "Spending limit exceeded"
	details := fmt.Sprintf("Purchase of %d points passes the card's %v spending limit of %v points", points, over.Details["type"], over.Details["limit"])
	if s, ok := over.Details["spendings"]; ok {
		details += fmt.Sprintf(" (spendings with it: %v)", s)
	}
	return apperr.New(http.StatusLocked, strings.ToLower(over.Reason), msg, details)
}

// LockedCard reads the card again under its row lock (the lock
// bookCardPoints takes too), so the balance a payment splits is current.
func LockedCard(ctx context.Context, cardID string) (*ent.Card, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Card.Query().Where(card.ID(cardID))
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	crd, err := q.Only(ctx)
	if err := loyaltybase.NotFound(err, "card", cardID); err != nil {
		return nil, err
	}
	return crd, nil
}

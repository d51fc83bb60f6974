package payment

import (
	"errors"
	"fmt"
	"math"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/formula"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// exchangeRatio evaluates the definition's formula for an order: the
// amount one point pays, positive and finite; 423
// pay_with_points_not_enabled when the definition has none or it gives no
// positive number for this order.
func exchangeRatio(d *ent.CardDefinition, o *ent.Order) (float64, error) {
	cfg := loyalty.PayWithPointsOf(d)
	if cfg.Type != loyalty.PayExchangeRatio {
		return 0, loyaltybase.Locked423("pay_with_points_not_enabled", "Pay with points is not enabled",
			"Card definition does not have pay with points enabled")
	}
	expr, err := formula.Parse(string(cfg.ExchangeRatio.Formula))
	if err != nil {
		return 0, fmt.Errorf("parsing stored exchange ratio: %w", err)
	}
	ratio, err := expr.Number(formula.Env{
		Vars:     map[string]float64{"ORDER_AMOUNT": float64(o.TotalAmount) / 100},
		Metadata: map[string]map[string]any{"order": o.Metadata},
	})
	if err != nil && !errors.Is(err, formula.ErrNoValue) {
		return 0, fmt.Errorf("evaluating exchange ratio: %w", err)
	}
	if err != nil || ratio <= 0 || math.IsInf(ratio, 0) {
		return 0, loyaltybase.Locked423("pay_with_points_not_enabled", "Pay with points is not enabled",
			fmt.Sprintf("The exchange ratio of card definition %s gives no positive number for order %s", d.ID, o.ID))
	}
	return ratio, nil
}

// paymentSplit is what a payment takes: the amount it pays and the
// points that costs, from the points available, the amount the order
// still owes and the request's limit. amount = ⌊points × ratio⌋ capped by
// the order and the limit; points = ⌈amount / ratio⌉ (never more than
// available).
func paymentSplit(available, owed int64, ratio float64, limit *OrderPaymentLimit) (amount, points int64) {
	if limit != nil && limit.PointsLimit != nil && limit.Type != nil && *limit.Type == limitPoints {
		available = min(available, limit.PointsLimit.Max)
	}
	amount = int64(math.Floor(float64(available)*ratio + 1e-9))
	if limit != nil && limit.AmountLimit != nil && limit.Type != nil && *limit.Type == limitAmount {
		amount = min(amount, limit.AmountLimit.Max)
	}
	amount = min(amount, owed)
	if amount <= 0 {
		return 0, 0
	}
	points = min(int64(math.Ceil(float64(amount)/ratio-1e-9)), available)
	return amount, points
}

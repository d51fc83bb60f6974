package loyalty

import (
	"errors"
	"fmt"
	"math"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/formula"
)

// A card definition's pay-with-points configuration (`pay_with_points`):
// NO_PAYMENTS (the default; stored as null) or EXCHANGE_RATIO with a
// formula giving the amount, in the currency's minor unit, one point pays
// (1: 100 points pay 1.00). The formula is the discount formulas' language
// (graph/formula): a number, or an expression of the order
// (ORDER_AMOUNT in the main unit, ORDER_METADATA(…), …).

// Pay-with-points types.
const (
	payNone          = "NO_PAYMENTS"
	payExchangeRatio = "EXCHANGE_RATIO"
)

// maxFormulaLength is the documents' bound of an exchange-ratio formula.
const maxFormulaLength = 2000

// payWithPointsConfig checks a card definition's pay_with_points and
// returns what to store (nil for NO_PAYMENTS).
func payWithPointsConfig(p *jsonfield.PayWithPoints) (*jsonfield.PayWithPoints, error) {
	switch p.Type {
	case payNone:
		if p.ExchangeRatio != nil {
			return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio is allowed only with type EXCHANGE_RATIO")
		}
		return nil, nil
	case payExchangeRatio:
	default:
		return nil, apperr.InvalidPayload("Property .pay_with_points.type must be NO_PAYMENTS or EXCHANGE_RATIO")
	}
	if p.ExchangeRatio == nil {
		return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio is required with type EXCHANGE_RATIO")
	}
	src := string(p.ExchangeRatio.Formula)
	if n := len([]rune(src)); n < 1 || n > maxFormulaLength {
		return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio.formula must be 1-%d characters long", maxFormulaLength)
	}
	if _, err := formula.Parse(src); err != nil {
		return nil, apperr.InvalidPayload("Property .pay_with_points.exchange_ratio.formula: %v", err)
	}
	return &jsonfield.PayWithPoints{Type: payExchangeRatio, ExchangeRatio: p.ExchangeRatio}, nil
}

// PayWithPointsOf is a card definition's configuration as the interface
// shows it: always present, NO_PAYMENTS when none is stored.
func PayWithPointsOf(d *ent.CardDefinition) jsonfield.PayWithPoints {
	if d.PayWithPoints == nil || d.PayWithPoints.Type != payExchangeRatio {
		return jsonfield.PayWithPoints{Type: payNone}
	}
	return *d.PayWithPoints
}

// exchangeRatio evaluates the definition's formula for an order: the
// amount one point pays, positive and finite; 423
// pay_with_points_not_enabled when the definition has none or it gives no
// positive number for this order.
func exchangeRatio(d *ent.CardDefinition, o *ent.Order) (float64, error) {
	cfg := PayWithPointsOf(d)
	if cfg.Type != payExchangeRatio {
		return 0, locked423("pay_with_points_not_enabled", "Pay with points is not enabled",
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
		return 0, locked423("pay_with_points_not_enabled", "Pay with points is not enabled",
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

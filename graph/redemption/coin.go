package redemption

import (
	"fmt"
	"math"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/discount"
)

// COIN rewards (pay with points, reference §6.5): redeeming one with a
// loyalty card converts points into an order discount. points_ratio points
// are worth exchange_ratio major currency units, so p points take
// floor(p × exchange_ratio × 100 / points_ratio) cents off the order. The
// request's reward.points says how many to spend; without it (or when it
// is more than the order needs) the points spent are the fewest that
// cover the whole order, rounded up to a multiple of points_ratio. The
// points leave the card once, with the redemption's POINTS_REDEMPTION
// transaction (writer.go).

// checkCoin prices a COIN reward for the order of the evaluation: it sets
// the points to spend and the discount they pay for (s.coinDiscount), or
// returns the failure (no order amount, a broken rate).
func (e *evaluation) checkCoin(s *redeemableState, rw *ent.V1Reward) *checkFailure {
	coin, _ := rw.Parameters["coin"].(map[string]any)
	ratio, per := number(coin["exchange_ratio"]), number(coin["points_ratio"])
	if ratio <= 0 || per <= 0 {
		return failure("invalid_reward", fmt.Sprintf("Reward %s has no valid coin rate", rw.ID))
	}
	amount := int64(0)
	if e.order != nil {
		amount = e.order.Amount
	}
	if amount <= 0 {
		return failure("invalid_order", fmt.Sprintf("Reward %s pays for an order with points: order.amount is required", rw.ID))
	}
	// The fewest points, in blocks of points_ratio, worth the whole order.
	whole := int64(math.Ceil(float64(amount)*per/(ratio*100)/per)) * int64(per)
	points := whole
	if given := s.input.Reward.Points; given != nil && *given > 0 && *given < whole {
		points = *given
	}
	s.points = points
	s.coinDiscount = min(amount, int64(math.Floor(float64(points)*ratio*100/per)))
	return nil
}

// coinCandidate is the order discount a COIN reward's points pay for.
func (s *redeemableState) coinCandidate(c discount.Candidate) discount.Candidate {
	d := discount.Discount{Type: discount.TypeAmount, AmountOff: s.coinDiscount, Effect: discount.EffectApplyToOrder}
	c.Discount = &d
	return c
}

// number reads a stored JSON number.
func number(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int64:
		return float64(n)
	case int:
		return float64(n)
	}
	return 0
}

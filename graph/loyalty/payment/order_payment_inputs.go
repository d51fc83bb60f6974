package payment

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// PayOrderInput is the body of POST …/members/{memberId}/orders/payments.
type PayOrderInput struct {
	CardID       *string            `json:"card_id"`
	Order        *OrderPaymentOrder `json:"order"`
	PaymentLimit *OrderPaymentLimit `json:"payment_limit"`
	// Mode is TRANSACTION (default) or DRY_RUN.
	Mode *string `json:"mode"`
}

// OrderPaymentOrder names the paid order by id or source_id.
type OrderPaymentOrder struct {
	ID       *string `json:"id"`
	SourceID *string `json:"source_id"`
}

// OrderPaymentLimit caps a payment: CARD_BALANCE (default), POINTS_LIMIT
// or AMOUNT_LIMIT with its {max}.
type OrderPaymentLimit struct {
	Type        *string          `json:"type"`
	PointsLimit *OrderPaymentMax `json:"points_limit"`
	AmountLimit *OrderPaymentMax `json:"amount_limit"`
}

// OrderPaymentMax is {max}, at least 1.
type OrderPaymentMax struct {
	Max int64 `json:"max"`
}

// Payment limit types and modes.
const (
	limitBalance    = "CARD_BALANCE"
	limitPoints     = "POINTS_LIMIT"
	limitAmount     = "AMOUNT_LIMIT"
	modeTransaction = "TRANSACTION"
	modeDryRun      = "DRY_RUN"
)

// OrderPaymentResult is a payment's answer: the order transaction (stored,
// or simulated with no id for a dry run), DryRun telling which.
type OrderPaymentResult struct {
	DryRun      bool
	Transaction *ent.OrderPayment
}

// OrderPaymentPage is a page of a member's order transactions.
type OrderPaymentPage struct {
	Data    []*ent.OrderPayment
	HasMore bool
}

// check validates the body before anything is read.
func (in *PayOrderInput) check() error {
	if in.CardID == nil || *in.CardID == "" {
		return apperr.InvalidPayload("Payload must have required property 'card_id'")
	}
	if in.Order == nil || (emptyRef(in.Order.ID) && emptyRef(in.Order.SourceID)) {
		return apperr.InvalidPayload("Property .order must have id or source_id")
	}
	if in.Mode != nil && *in.Mode != modeTransaction && *in.Mode != modeDryRun {
		return apperr.InvalidPayload("Property .mode must be TRANSACTION or DRY_RUN")
	}
	l := in.PaymentLimit
	if l == nil {
		return nil
	}
	if l.Type == nil {
		return apperr.InvalidPayload("Property .payment_limit must have required property 'type'")
	}
	var need *OrderPaymentMax
	name := ""
	switch *l.Type {
	case limitBalance:
		if l.PointsLimit != nil || l.AmountLimit != nil {
			return apperr.InvalidPayload("Property .payment_limit of type CARD_BALANCE takes no limit")
		}
		return nil
	case limitPoints:
		need, name = l.PointsLimit, "points_limit"
		if l.AmountLimit != nil {
			return apperr.InvalidPayload("Property .payment_limit.amount_limit is allowed only with type AMOUNT_LIMIT")
		}
	case limitAmount:
		need, name = l.AmountLimit, "amount_limit"
		if l.PointsLimit != nil {
			return apperr.InvalidPayload("Property .payment_limit.points_limit is allowed only with type POINTS_LIMIT")
		}
	default:
		return apperr.InvalidPayload("Property .payment_limit.type must be CARD_BALANCE, POINTS_LIMIT or AMOUNT_LIMIT")
	}
	if need == nil {
		return apperr.InvalidPayload("Property .payment_limit must have required property '%s'", name)
	}
	if need.Max < 1 || need.Max > loyalty.MaxPoints {
		return apperr.InvalidPayload("Property .payment_limit.%s.max must be between 1 and %d", name, int64(loyalty.MaxPoints))
	}
	return nil
}

// limits is the limit flattened as the transaction's details.metadata.
func (in *PayOrderInput) limits() map[string]any {
	out := map[string]any{}
	if l := in.PaymentLimit; l != nil && l.Type != nil {
		switch {
		case *l.Type == limitPoints && l.PointsLimit != nil:
			out["points_limit"] = l.PointsLimit.Max
		case *l.Type == limitAmount && l.AmountLimit != nil:
			out["amount_limit"] = l.AmountLimit.Max
		}
	}
	return out
}

func emptyRef(s *string) bool { return s == nil || *s == "" }

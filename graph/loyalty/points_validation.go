package loyalty

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Validation of the points an incentive or an earning rule effect awards:
// fixed points, points proportional to an order or customer value, and their
// expiration (material and digital details: details.go).

// MaxPoints is the largest number of points an earning rule effect or an
// incentive may award at once: the reference's maximum for an earning
// rule's points.value (loyalties-v2.json EarningRuleEffectPoints:
// integer, 0 to 9007199254740991 = 2^53 − 1). It is also the largest
// integer a JSON number (a float64, a JavaScript number) carries exactly,
// so a value within it is credited exactly as sent.
const MaxPoints = 1<<53 - 1

// checkPointsInteger refuses a points amount that is not a whole number
// from min to MaxPoints: a fraction, 1e308 or 2^63 would otherwise be
// truncated or overflow when credited.
func checkPointsInteger(path string, v, min float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || v < min || v > MaxPoints {
		return apperr.InvalidPayload("Property .%s must be an integer from %d to %d, got %s",
			path, int64(min), int64(MaxPoints), strconv.FormatFloat(v, 'f', -1, 64))
	}
	return nil
}

func ValidatePoints(ctx context.Context, path string, p *jsonfield.IncentivePoints) error {
	if p.Value == nil {
		return apperr.InvalidPayload("Property .%s must have required property 'value'", path)
	}
	if err := checkPointsInteger(path+".value", *p.Value, 0); err != nil {
		return err
	}
	if err := validateExpiration(path+".points_expiration", p.PointsExpiration); err != nil {
		return err
	}
	return requireCardDefinition(ctx, path, p.CardDefinitionID)
}

// calculationTypes maps each calculation_type to the sub-object it needs.
var calculationTypes = map[string]struct {
	path string
	pick func(*jsonfield.PointsProportional) *jsonfield.ProportionalRule
}{
	"PRE_DISCOUNT_ORDER_AMOUNT": {"order.amount", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.Order != nil, func() *jsonfield.ProportionalRule { return p.Order.Amount })
	}},
	"POST_DISCOUNT_ORDER_AMOUNT": {"order.total_amount", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.Order != nil, func() *jsonfield.ProportionalRule { return p.Order.TotalAmount })
	}},
	"ORDER_METADATA_VALUE": {"order.metadata", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.Order != nil, func() *jsonfield.ProportionalRule { return p.Order.Metadata })
	}},
	"CUSTOMER_METADATA_VALUE": {"customer.metadata", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.Customer != nil, func() *jsonfield.ProportionalRule { return p.Customer.Metadata })
	}},
	"PRE_DISCOUNT_ORDER_ITEMS_AMOUNT": {"order_items.amount", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.OrderItems != nil, func() *jsonfield.ProportionalRule { return p.OrderItems.Amount })
	}},
	"POST_DISCOUNT_ORDER_ITEMS_AMOUNT": {"order_items.subtotal_amount", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.OrderItems != nil, func() *jsonfield.ProportionalRule { return p.OrderItems.SubtotalAmount })
	}},
	"ORDER_ITEMS_QUANTITY": {"order_items.quantity", func(p *jsonfield.PointsProportional) *jsonfield.ProportionalRule {
		return ruleOf(p.OrderItems != nil, func() *jsonfield.ProportionalRule { return p.OrderItems.Quantity })
	}},
}

func ruleOf(parent bool, get func() *jsonfield.ProportionalRule) *jsonfield.ProportionalRule {
	if !parent {
		return nil
	}
	return get()
}

func ValidatePointsProportional(ctx context.Context, path string, p *jsonfield.PointsProportional) error {
	if p.CalculationType == nil {
		return apperr.InvalidPayload("Property .%s must have required property 'calculation_type'", path)
	}
	ct, ok := calculationTypes[*p.CalculationType]
	if !ok {
		return apperr.InvalidPayload("Property .%s.calculation_type must be one of PRE_DISCOUNT_ORDER_AMOUNT, POST_DISCOUNT_ORDER_AMOUNT, ORDER_METADATA_VALUE, CUSTOMER_METADATA_VALUE, PRE_DISCOUNT_ORDER_ITEMS_AMOUNT, POST_DISCOUNT_ORDER_ITEMS_AMOUNT, ORDER_ITEMS_QUANTITY, got %q", path, *p.CalculationType)
	}
	rule := ct.pick(p)
	if rule == nil {
		return apperr.InvalidPayload("Property .%s.%s is required when calculation_type is %s", path, ct.path, *p.CalculationType)
	}
	rp := path + "." + ct.path
	if rule.Every == nil || *rule.Every < 1 {
		return apperr.InvalidPayload("Property .%s.every is required and must be >= 1", rp)
	}
	if rule.Value == nil || *rule.Value < 0 {
		return apperr.InvalidPayload("Property .%s.value is required and must be >= 0", rp)
	}
	// The reference makes both integers; here they may be fractions (the
	// interface says numbers), but never beyond what can be credited.
	if *rule.Every > MaxPoints || *rule.Value > MaxPoints || math.IsInf(*rule.Every, 0) || math.IsInf(*rule.Value, 0) {
		return apperr.InvalidPayload("Property .%s.every and .value must be at most %d", rp, int64(MaxPoints))
	}
	metadataForm := ct.path == "order.metadata" || ct.path == "customer.metadata"
	if metadataForm && (rule.Property == nil || *rule.Property == "") {
		return apperr.InvalidPayload("Property .%s.property is required", rp)
	}
	if !metadataForm && rule.Property != nil {
		return apperr.InvalidPayload("Property .%s.property is not allowed: only the metadata forms name a property", rp)
	}
	if strings.HasPrefix(ct.path, "order_items.") && len(rule.ApplicableTo) == 0 {
		return apperr.InvalidPayload("Property .%s.applicable_to is required: at least one product, SKU or collection", rp)
	}
	if !strings.HasPrefix(ct.path, "order_items.") && len(rule.ApplicableTo) > 0 {
		return apperr.InvalidPayload("Property .%s.applicable_to is not allowed: only the order_items forms count items", rp)
	}
	for i := range rule.ApplicableTo {
		if err := typeApplicableTo(rp, i, &rule.ApplicableTo[i]); err != nil {
			return err
		}
	}
	if err := validateExpiration(path+".points_expiration", p.PointsExpiration); err != nil {
		return err
	}
	return requireCardDefinition(ctx, path, p.CardDefinitionID)
}

// validateExpiration checks a points_expiration: exactly one variant.
func validateExpiration(path string, e *jsonfield.PointsExpiration) error {
	if e == nil {
		return nil
	}
	n := 0
	if r := e.RollingExpiration; r != nil {
		n++
		if r.Period == nil || r.Period.Value == nil || *r.Period.Value < 1 {
			return apperr.InvalidPayload("Property .%s.rolling_expiration.period.value is required and must be >= 1", path)
		}
		if err := validatePeriodUnits(path+".rolling_expiration", r.Period, r.Rounding); err != nil {
			return err
		}
	}
	if c := e.CalendarExpiration; c != nil {
		n++
		if len(c.ExpirationDates) == 0 {
			return apperr.InvalidPayload("Property .%s.calendar_expiration.expiration_dates must have at least 1 item", path)
		}
		for i, d := range c.ExpirationDates {
			if d.Month < 1 || d.Month > 12 || d.Day < 1 || d.Day > 31 {
				return apperr.InvalidPayload("Property .%s.calendar_expiration.expiration_dates[%d] must have day 1-31 and month 1-12", path, i)
			}
		}
	}
	if s := e.SlidingExpiration; s != nil {
		n++
		if s.Period == nil || s.Period.Value == nil || *s.Period.Value < 1 {
			return apperr.InvalidPayload("Property .%s.sliding_expiration.period.value is required and must be >= 1", path)
		}
		if err := validatePeriodUnits(path+".sliding_expiration", s.Period, nil); err != nil {
			return err
		}
	}
	if n != 1 {
		return apperr.InvalidPayload("Property .%s must have exactly one of rolling_expiration, calendar_expiration, sliding_expiration", path)
	}
	return nil
}

// validatePeriodUnits checks an expiration period's unit (DAY, MONTH,
// YEAR; absent: MONTH) and a rounding's type (value 1–12 for
// END_OF_PARTICULAR_MONTH), the points engine's dating rules.
func validatePeriodUnits(path string, period, rounding *jsonfield.IntValue) error {
	if u := period.Unit; u != nil && *u != "DAY" && *u != "MONTH" && *u != "YEAR" {
		return apperr.InvalidPayload("Property .%s.period.unit must be one of DAY, MONTH, YEAR", path)
	}
	if rounding == nil || rounding.Type == nil {
		return nil
	}
	switch *rounding.Type {
	case "END_OF_MONTH", "END_OF_QUARTER", "END_OF_HALF_YEAR", "END_OF_YEAR":
		return nil
	case "END_OF_PARTICULAR_MONTH":
		if v := rounding.Value; v != nil && *v >= 1 && *v <= 12 {
			return nil
		}
		return apperr.InvalidPayload("Property .%s.rounding.value must be a month 1-12 for END_OF_PARTICULAR_MONTH", path)
	}
	return apperr.InvalidPayload("Property .%s.rounding.type must be one of END_OF_MONTH, END_OF_QUARTER, END_OF_HALF_YEAR, END_OF_YEAR, END_OF_PARTICULAR_MONTH", path)
}

// typeApplicableTo checks that an applicable_to entry names exactly one of
// product, sku, products_collection (with an id) and sets its type.
func typeApplicableTo(path string, i int, a *jsonfield.ApplicableTo) error {
	var kinds []string
	for kind, ref := range map[string]*jsonfield.IDRef{"product": a.Product, "sku": a.SKU, "products_collection": a.ProductsCollection} {
		if ref != nil {
			if ref.ID == "" {
				return apperr.InvalidPayload("Property .%s.applicable_to[%d].%s must have required property 'id'", path, i, kind)
			}
			kinds = append(kinds, kind)
		}
	}
	if len(kinds) != 1 {
		return apperr.InvalidPayload("Property .%s.applicable_to[%d] must name exactly one of product, sku, products_collection", path, i)
	}
	if a.Type != nil && *a.Type != kinds[0] {
		return apperr.InvalidPayload("Property .%s.applicable_to[%d].type must be %s", path, i, kinds[0])
	}
	a.Type = &kinds[0]
	return nil
}

// requireCardDefinition checks that a referenced card definition exists.
func requireCardDefinition(ctx context.Context, path string, id *string) error {
	if id == nil || *id == "" {
		return apperr.InvalidPayload("Property .%s must have required property 'card_definition_id'", path)
	}
	_, err := loyaltybase.CardDefinition(ctx, *id)
	return err
}

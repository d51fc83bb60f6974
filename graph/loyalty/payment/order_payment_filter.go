package payment

import (
	"context"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/orderpayment"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// OrderPaymentFilter is the documents' filters of a member's order
// transactions (REST filters[id|created_at][conditions][$op],
// filters[junction]; GraphQL memberOrderPayments' filter): the conditions
// hold together (AND), or any of them (Or). $is/$is_not of an id are
// IDIn/IDNotIn of one; created_at's $is/$more_than/$less_than count whole
// days back from now (UTC), $has_value matches every row (created_at is
// always set) and $is_unknown none.
type OrderPaymentFilter struct {
	Or                  bool
	IDIn                []string
	IDNotIn             []string
	CreatedBefore       *time.Time
	CreatedAfter        *time.Time
	CreatedDaysAgo      *int
	CreatedMoreThanDays *int
	CreatedLessThanDays *int
	CreatedHasValue     *bool
	CreatedUnknown      *bool
}

// predicates turns the filter into one condition (nil: no filter).
func (f *OrderPaymentFilter) predicates(ctx context.Context) (predicate.OrderPayment, error) {
	if f == nil {
		return nil, nil
	}
	if len(f.IDIn) > loyalty.MaxFilterValues || len(f.IDNotIn) > loyalty.MaxFilterValues {
		return nil, apperr.InvalidQueryParams("Filter id ($in, $not_in) must have at most %d items", loyalty.MaxFilterValues)
	}
	var terms []predicate.OrderPayment
	if f.IDIn != nil {
		terms = append(terms, orderpayment.IDIn(f.IDIn...))
	}
	if len(f.IDNotIn) > 0 {
		terms = append(terms, orderpayment.IDNotIn(f.IDNotIn...))
	}
	if f.CreatedBefore != nil {
		terms = append(terms, orderpayment.CreatedAtLT(*f.CreatedBefore))
	}
	if f.CreatedAfter != nil {
		terms = append(terms, orderpayment.CreatedAtGT(*f.CreatedAfter))
	}
	now := clock.At(ctx).UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	for _, n := range []*int{f.CreatedDaysAgo, f.CreatedMoreThanDays, f.CreatedLessThanDays} {
		if n != nil && *n < 0 {
			return nil, apperr.InvalidQueryParams("Filter created_at ($is, $more_than, $less_than) must be a non-negative number of days")
		}
	}
	if n := f.CreatedDaysAgo; n != nil {
		day := today.AddDate(0, 0, -*n)
		// One condition: both bounds together, also under OR.
		terms = append(terms, orderpayment.And(orderpayment.CreatedAtGTE(day), orderpayment.CreatedAtLT(day.AddDate(0, 0, 1))))
	}
	if n := f.CreatedMoreThanDays; n != nil {
		terms = append(terms, orderpayment.CreatedAtLT(now.AddDate(0, 0, -*n)))
	}
	if n := f.CreatedLessThanDays; n != nil {
		terms = append(terms, orderpayment.CreatedAtGT(now.AddDate(0, 0, -*n)))
	}
	if f.CreatedHasValue != nil && *f.CreatedHasValue {
		terms = append(terms, predicate.OrderPayment(sql.FieldNotNull(orderpayment.FieldCreatedAt)))
	}
	if f.CreatedUnknown != nil && *f.CreatedUnknown {
		terms = append(terms, predicate.OrderPayment(sql.FieldIsNull(orderpayment.FieldCreatedAt)))
	}
	switch {
	case len(terms) == 0:
		return nil, nil
	case f.Or:
		return orderpayment.Or(terms...), nil
	}
	return orderpayment.And(terms...), nil
}

package loyaltyv2

import (
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/payment"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// orderTransactionID is the documents' pattern of an order transaction id
// in a filter.
var orderTransactionID = regexp.MustCompile(`^lotx_[a-f0-9]+$`)

// parseOrderPaymentFilters reads GET …/orders/payments' filters
// (filters[id][conditions][$is|$is_not|$in|$not_in],
// filters[created_at][conditions][$before|$after|$is|$more_than|
// $less_than|$has_value|$is_unknown], filters[junction]) into the domain's
// filter; nil when there are none. Anything else is 400
// invalid_query_params.
func parseOrderPaymentFilters(q url.Values) (*payment.OrderPaymentFilter, error) {
	conds, or, err := httpkit.ConditionFilters(q)
	if err != nil || (len(conds) == 0 && !or) {
		return nil, err
	}
	f := &payment.OrderPaymentFilter{Or: or}
	for _, c := range conds {
		name := "filters[" + c.Field + "][conditions][" + c.Op + "]"
		single := func() (string, error) {
			if len(c.Values) != 1 {
				return "", apperr.InvalidQueryParams("Filter %s takes one value", name)
			}
			return c.Values[0], nil
		}
		switch c.Field {
		case "id":
			if len(c.Values) < 1 || len(c.Values) > loyalty.MaxFilterValues {
				return nil, apperr.InvalidQueryParams("Filter %s takes 1 to %d values", name, loyalty.MaxFilterValues)
			}
			for _, v := range c.Values {
				if !orderTransactionID.MatchString(v) {
					return nil, apperr.InvalidQueryParams("Filter %s: %q is not an order transaction id (lotx_…)", name, v)
				}
			}
			switch c.Op {
			case "$is", "$in":
				if c.Op == "$is" && len(c.Values) != 1 {
					return nil, apperr.InvalidQueryParams("Filter %s takes one value", name)
				}
				f.IDIn = append(f.IDIn, c.Values...)
			case "$is_not", "$not_in":
				if c.Op == "$is_not" && len(c.Values) != 1 {
					return nil, apperr.InvalidQueryParams("Filter %s takes one value", name)
				}
				f.IDNotIn = append(f.IDNotIn, c.Values...)
			default:
				return nil, apperr.InvalidQueryParams("Unknown filter condition %s", name)
			}
		case "created_at":
			if err := createdAtCondition(f, c.Op, name, single); err != nil {
				return nil, err
			}
		default:
			return nil, apperr.InvalidQueryParams("Unknown filter field %s (id or created_at)", c.Field)
		}
	}
	return f, nil
}

// createdAtCondition sets one created_at condition of f.
func createdAtCondition(f *payment.OrderPaymentFilter, op, name string, single func() (string, error)) error {
	switch op {
	case "$has_value", "$is_unknown":
		yes := true
		if op == "$has_value" {
			f.CreatedHasValue = &yes
		} else {
			f.CreatedUnknown = &yes
		}
		return nil
	}
	v, err := single()
	if err != nil {
		return err
	}
	switch op {
	case "$before", "$after":
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			if t, err = time.Parse(time.DateOnly, v); err != nil {
				return apperr.InvalidQueryParams("Filter %s must be an ISO 8601 date-time, got %q", name, v)
			}
		}
		if op == "$before" {
			f.CreatedBefore = &t
		} else {
			f.CreatedAfter = &t
		}
		return nil
	case "$is", "$more_than", "$less_than":
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return apperr.InvalidQueryParams("Filter %s must be a non-negative number of days, got %q", name, v)
		}
		switch op {
		case "$is":
			f.CreatedDaysAgo = &n
		case "$more_than":
			f.CreatedMoreThanDays = &n
		default:
			f.CreatedLessThanDays = &n
		}
		return nil
	}
	return apperr.InvalidQueryParams("Unknown filter condition %s", name)
}

// filtersFingerprint is a list query's filters[…] parameters in one
// canonical string (sorted keys, values in order), which a cursor is
// bound to.
func filtersFingerprint(q url.Values) string {
	var parts []string
	for k, vs := range q {
		if strings.HasPrefix(k, "filters") {
			parts = append(parts, k+"="+strings.Join(vs, ","))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

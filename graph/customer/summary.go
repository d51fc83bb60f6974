package customer

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Summary is the customer's summary object: the redemption
// counters (computed from the redemption history, so they can never drift
// from it), the gift credits and loyalty points redeemed, net of
// rollbacks, and the order counters (OrdersSummary).
func Summary(ctx context.Context, cust *ent.Customer) (map[string]any, error) {
	all, err := Summaries(ctx, []*ent.Customer{cust})
	if err != nil {
		return nil, err
	}
	return all[cust.ID], nil
}

// IDs are the IDs of custs, in order (the key of a page's per-customer
// reads: Summaries, loyalty.ReferralsOfMany).
func IDs(custs []*ent.Customer) []string {
	ids := make([]string, len(custs))
	for i, cust := range custs {
		ids[i] = cust.ID
	}
	return ids
}

// Summaries is Summary for a page of customers (GET /v1/customers), keyed
// by customer ID: one grouped statement over the page's customers' history
// (counts per object, result, status and related object type, with the
// sums of credits and of points that stand) instead of three per customer.
func Summaries(ctx context.Context, custs []*ent.Customer) (map[string]map[string]any, error) {
	out := make(map[string]map[string]any, len(custs))
	if len(custs) == 0 {
		return out, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ids := IDs(custs)
	groups, err := summaryGroups(ctx, c, ids)
	if err != nil {
		return nil, err
	}
	counts := map[string]map[string]int{}
	gift, points := map[string]int64{}, map[string]int64{}
	for _, id := range ids {
		counts[id] = map[string]int{}
	}
	for _, g := range groups {
		n := counts[g.CustomerID]
		if n == nil {
			continue
		}
		if g.Object == redemption.ObjectRedemption.String() && g.Status == redemption.StatusSUCCEEDED.String() {
			// The credits and points that stand (not rolled back), of
			// every kind of redeemable.
			gift[g.CustomerID] += deref(g.Gift)
			points[g.CustomerID] += deref(g.Points)
		}
		if g.RelatedObjectType != "voucher" {
			continue
		}
		if g.Object == redemption.ObjectRedemptionRollback.String() {
			n["total_rollback_succeeded"] += g.Count
			continue
		}
		n["total_redeemed"] += g.Count
		if g.Result == redemption.ResultSUCCESS.String() {
			n["total_succeeded"] += g.Count
		} else {
			n["total_failed"] += g.Count
		}
		if g.Status == redemption.StatusROLLED_BACK.String() {
			n["total_rolled_back"] += g.Count
		}
	}
	for _, cust := range custs {
		reds := map[string]any{"gift": map[string]any{"redeemed_amount": gift[cust.ID], "amount_to_go": 0},
			"loyalty_card": map[string]any{"redeemed_points": points[cust.ID], "points_to_go": 0}}
		for _, k := range []string{"total_redeemed", "total_failed", "total_succeeded", "total_rolled_back",
			"total_rollback_failed", "total_rollback_succeeded"} {
			reds[k] = counts[cust.ID][k]
		}
		out[cust.ID] = map[string]any{"redemptions": reds, "orders": OrdersSummary(cust)}
	}
	return out, nil
}

// summaryGroup is one group of a page's customers' history: its count and
// the sum of the amounts of its entries without a reward (gift credits)
// and with one (loyalty points).
type summaryGroup struct {
	CustomerID        string `json:"customer_id"`
	Object            string `json:"object"`
	Result            string `json:"result"`
	Status            string `json:"status"`
	RelatedObjectType string `json:"related_object_type"`
	Count             int    `json:"count"`
	Gift              *int64 `json:"gift"`
	Points            *int64 `json:"points"`
}

// summaryGroups reads the history of the customers ids in one statement,
// grouped by customer, object, result, status and related object type.
func summaryGroups(ctx context.Context, c *ent.Client, ids []string) ([]summaryGroup, error) {
	sum := func(name, cond string) ent.AggregateFunc {
		return func(s *sql.Selector) string {
			return sql.As(fmt.Sprintf("SUM(CASE WHEN %s %s THEN %s END)", s.C(redemption.FieldReward), cond,
				s.C(redemption.FieldAmount)), name)
		}
	}
	var groups []summaryGroup
	err := c.Redemption.Query().Where(redemption.CustomerIDIn(ids...)).
		GroupBy(redemption.FieldCustomerID, redemption.FieldObject, redemption.FieldResult, redemption.FieldStatus,
			redemption.FieldRelatedObjectType).
		Aggregate(ent.Count(), sum("gift", "IS NULL"), sum("points", "IS NOT NULL")).Scan(ctx, &groups)
	if err != nil {
		return nil, fmt.Errorf("summing customer redemptions: %w", err)
	}
	return groups, nil
}

func deref(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}

// OrdersSummary is the customer's summary.orders: the counters
// graph/order keeps of the customer's PAID and FULFILLED orders, with
// their mean (rounded down) and the last one counted. Before any, the
// last amount is 0 and the last date is left out, as the real service
// answers (customers.json examples; last_order_amount is a required,
// non-null integer there).
func OrdersSummary(cust *ent.Customer) map[string]any {
	avg, last := int64(0), int64(0)
	if cust.OrdersTotalCount > 0 {
		avg = cust.OrdersTotalAmount / int64(cust.OrdersTotalCount)
	}
	if cust.OrdersLastAmount != nil {
		last = *cust.OrdersLastAmount
	}
	out := map[string]any{"total_amount": cust.OrdersTotalAmount, "total_count": cust.OrdersTotalCount,
		"average_amount": avg, "last_order_amount": last}
	if cust.OrdersLastDate != nil {
		out["last_order_date"] = clock.Format(*cust.OrdersLastDate)
	}
	return out
}

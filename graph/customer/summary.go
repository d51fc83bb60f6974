package customer

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
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

// Summaries is Summary for a page of customers (GET /v1/customers), keyed
// by customer ID: three grouped statements over the page's customers
// instead of three per customer.
func Summaries(ctx context.Context, custs []*ent.Customer) (map[string]map[string]any, error) {
	out := make(map[string]map[string]any, len(custs))
	if len(custs) == 0 {
		return out, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(custs))
	for i, cust := range custs {
		ids[i] = cust.ID
	}
	var groups []struct {
		CustomerID string `json:"customer_id"`
		Object     string `json:"object"`
		Result     string `json:"result"`
		Status     string `json:"status"`
		Count      int    `json:"count"`
	}
	err = c.Redemption.Query().Where(redemption.CustomerIDIn(ids...), redemption.RelatedObjectType("voucher")).
		GroupBy(redemption.FieldCustomerID, redemption.FieldObject, redemption.FieldResult, redemption.FieldStatus).
		Aggregate(ent.Count()).Scan(ctx, &groups)
	if err != nil {
		return nil, fmt.Errorf("counting customer redemptions: %w", err)
	}
	counts := map[string]map[string]int{}
	for _, id := range ids {
		counts[id] = map[string]int{}
	}
	for _, g := range groups {
		n := counts[g.CustomerID]
		if n == nil {
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
	gift, err := redeemedAmounts(ctx, c, ids, redemption.RewardIsNil())
	if err != nil {
		return nil, err
	}
	points, err := redeemedAmounts(ctx, c, ids, redemption.RewardNotNil())
	if err != nil {
		return nil, err
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

// redeemedAmounts sums, per customer, the credits or points of the
// customers' redemptions that still stand (not rolled back); a customer
// without any is absent (0).
func redeemedAmounts(ctx context.Context, c *ent.Client, customerIDs []string, kind predicate.Redemption) (map[string]int64, error) {
	var rows []struct {
		CustomerID string `json:"customer_id"`
		Sum        *int64 `json:"sum"`
	}
	preds := []predicate.Redemption{redemption.CustomerIDIn(customerIDs...), redemption.ObjectEQ(redemption.ObjectRedemption),
		redemption.StatusEQ(redemption.StatusSUCCEEDED), redemption.AmountNotNil(), kind}
	err := c.Redemption.Query().Where(preds...).GroupBy(redemption.FieldCustomerID).
		Aggregate(ent.As(ent.Sum(redemption.FieldAmount), "sum")).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("summing redeemed amounts: %w", err)
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		if r.Sum != nil {
			out[r.CustomerID] = *r.Sum
		}
	}
	return out, nil
}

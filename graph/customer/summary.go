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
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	var groups []struct {
		Object string `json:"object"`
		Result string `json:"result"`
		Status string `json:"status"`
		Count  int    `json:"count"`
	}
	err = c.Redemption.Query().Where(redemption.CustomerID(cust.ID), redemption.RelatedObjectType("voucher")).
		GroupBy(redemption.FieldObject, redemption.FieldResult, redemption.FieldStatus).
		Aggregate(ent.Count()).Scan(ctx, &groups)
	if err != nil {
		return nil, fmt.Errorf("counting customer redemptions: %w", err)
	}
	counts := map[string]int{}
	for _, g := range groups {
		if g.Object == redemption.ObjectRedemptionRollback.String() {
			counts["total_rollback_succeeded"] += g.Count
			continue
		}
		counts["total_redeemed"] += g.Count
		if g.Result == redemption.ResultSUCCESS.String() {
			counts["total_succeeded"] += g.Count
		} else {
			counts["total_failed"] += g.Count
		}
		if g.Status == redemption.StatusROLLED_BACK.String() {
			counts["total_rolled_back"] += g.Count
		}
	}
	gift, err := redeemedAmount(ctx, c, cust.ID, redemption.RewardIsNil())
	if err != nil {
		return nil, err
	}
	points, err := redeemedAmount(ctx, c, cust.ID, redemption.RewardNotNil())
	if err != nil {
		return nil, err
	}
	reds := map[string]any{"gift": map[string]any{"redeemed_amount": gift, "amount_to_go": 0},
		"loyalty_card": map[string]any{"redeemed_points": points, "points_to_go": 0}}
	for _, k := range []string{"total_redeemed", "total_failed", "total_succeeded", "total_rolled_back",
		"total_rollback_failed", "total_rollback_succeeded"} {
		reds[k] = counts[k]
	}
	return map[string]any{"redemptions": reds, "orders": OrdersSummary(cust)}, nil
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

// redeemedAmount sums the credits or points of a customer's redemptions
// that still stand (not rolled back).
func redeemedAmount(ctx context.Context, c *ent.Client, customerID string, kind predicate.Redemption) (int64, error) {
	var rows []struct {
		Sum *int64 `json:"sum"`
	}
	preds := []predicate.Redemption{redemption.CustomerID(customerID), redemption.ObjectEQ(redemption.ObjectRedemption),
		redemption.StatusEQ(redemption.StatusSUCCEEDED), redemption.AmountNotNil(), kind}
	if err := c.Redemption.Query().Where(preds...).Aggregate(ent.As(ent.Sum(redemption.FieldAmount), "sum")).Scan(ctx, &rows); err != nil {
		return 0, fmt.Errorf("summing redeemed amounts: %w", err)
	}
	if len(rows) == 0 || rows[0].Sum == nil {
		return 0, nil
	}
	return *rows[0].Sum, nil
}

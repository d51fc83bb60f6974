package customer

import (
	"context"
	stdsql "database/sql"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
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
	CustomerID        string
	Object            string
	Result            string
	Status            string
	RelatedObjectType string
	Count             int
	Gift              *int64
	Points            *int64
}

// summaryGroups reads the history of the customers ids in one statement,
// grouped by customer, object, result, status and related object type.
// The statement is built and scanned by hand, the project explicit (the
// tenancy interceptor does not reach it): ent's GroupBy scanned its rows
// by reflection, a tenth of the server's CPU of a page of customers.
func summaryGroups(ctx context.Context, c *ent.Client, ids []string) ([]summaryGroup, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, schema.ErrNoViewer
	}
	b := sql.Dialect(store.Dialect(ctx))
	t := b.Table(redemption.Table)
	sum := func(cond string) string {
		return fmt.Sprintf("SUM(CASE WHEN %s %s THEN %s END)", t.C(redemption.FieldReward), cond, t.C(redemption.FieldAmount))
	}
	keys := t.Columns(redemption.FieldCustomerID, redemption.FieldObject, redemption.FieldResult, redemption.FieldStatus,
		redemption.FieldRelatedObjectType)
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	query, qargs := b.Select(append(keys, "COUNT(*)", sum("IS NULL"), sum("IS NOT NULL"))...).From(t).
		Where(sql.And(sql.In(t.C(redemption.FieldCustomerID), args...), sql.EQ(t.C(redemption.FieldProjectID), v.ProjectID))).
		GroupBy(keys...).Query()
	rows, err := c.QueryContext(ctx, query, qargs...)
	if err != nil {
		return nil, fmt.Errorf("summing customer redemptions: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var groups []summaryGroup
	for rows.Next() {
		var g summaryGroup
		var gift, points stdsql.NullInt64
		if err := rows.Scan(&g.CustomerID, &g.Object, &g.Result, &g.Status, &g.RelatedObjectType, &g.Count, &gift, &points); err != nil {
			return nil, fmt.Errorf("summing customer redemptions: %w", err)
		}
		if gift.Valid {
			g.Gift = &gift.Int64
		}
		if points.Valid {
			g.Points = &points.Int64
		}
		groups = append(groups, g)
	}
	if err := rows.Err(); err != nil {
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

package order

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/job"
)

// Order imports (REST POST /v1/orders/import, importOrders): the orders
// are checked and stored with the job, answered at once with the async
// action, and the worker writes them in committed batches. Imported
// orders are history: like the real service's import they send no
// webhook events, record no activities and fire no earning rules; they
// do count in their customers' summary.orders.

// JobOrdersImport is the async action type of an order import.
const JobOrdersImport = "ORDERS.IMPORT"

// importBatch is the number of orders per committed transaction.
const importBatch = 100

// ImportOrders schedules an ORDERS.IMPORT async action of the orders
// (at most MaxImport; each checked now, 400 naming the first bad one).
func ImportOrders(ctx context.Context, orders []*OrderInput) (*ent.AsyncAction, error) {
	if len(orders) > MaxImport {
		return nil, apperr.InvalidPayload("Payload may hold at most %d orders, got %d", MaxImport, len(orders))
	}
	for i, in := range orders {
		if in == nil {
			return nil, apperr.InvalidPayload("Property [%d] must be an object", i)
		}
		if err := checkInput(in); err != nil {
			return nil, prefixed(err, fmt.Sprintf("[%d]", i))
		}
		if _, err := calculate(in.Amount, in.DiscountAmount, in.Items, nil); err != nil {
			return nil, prefixed(err, fmt.Sprintf("[%d]", i))
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(orders)
	if err != nil {
		return nil, fmt.Errorf("encoding the orders: %w", err)
	}
	var requestID *string
	if id := observe.RequestIDFromContext(ctx); id != "" {
		requestID = &id
	}
	j, err := c.AsyncAction.Create().SetType(JobOrdersImport).SetParams(&jsonfield.GenerationParams{Items: raw}).
		SetTotal(len(orders)).SetNillableRequestID(requestID).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling the order import: %w", err)
	}
	return j, nil
}

// prefixed names the order of an import in a 400's details ("Property
// .items…" becomes "Property [3].items…").
func prefixed(err error, at string) error {
	e, ok := apperr.As(err)
	if !ok {
		return err
	}
	cp := *e
	const p = "Property ."
	if len(cp.Details) >= len(p) && cp.Details[:len(p)] == p {
		cp.Details = "Property " + at + "." + cp.Details[len(p):]
	}
	return &cp
}

// JobHandlers are the order jobs' handlers by type, registered at wiring
// (graph/wiring.go).
func JobHandlers() map[string]job.Handler {
	return map[string]job.Handler{JobOrdersImport: {Run: runImport, Result: importResult}}
}

// runImport writes the job's orders importBatch per transaction; an
// order refused now (an unknown customer id) is recorded and skipped.
func runImport(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	var orders []*OrderInput
	if j.Total > 0 && (j.Params == nil || json.Unmarshal(j.Params.Items, &orders) != nil || len(orders) != j.Total) {
		return fmt.Errorf("job %s: unreadable orders", j.ID)
	}
	for done := j.Done; done < j.Total; {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, end := done, min(done+importBatch, j.Total)
		n, err := w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
			failed := []any{}
			for i := start; i < end; i++ {
				if _, err := write(ctx, orders[i], imported); err != nil {
					e, ok := apperr.As(err)
					if !ok {
						return 0, err
					}
					failed = append(failed, map[string]any{"index": i, "source_id": orders[i].SourceID,
						"error": map[string]any{"key": e.Key, "message": e.Message, "details": e.Details}})
				}
			}
			return end - start, recordFailures(ctx, j.ID, failed)
		})
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// recordFailures adds a batch's refused orders to the job's result.
func recordFailures(ctx context.Context, jobID string, failed []any) error {
	if len(failed) == 0 {
		return nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	cur, err := c.AsyncAction.Get(ctx, jobID)
	if err != nil {
		return fmt.Errorf("reading the job's result: %w", err)
	}
	res := map[string]any{}
	for k, v := range cur.Result {
		res[k] = v
	}
	list, _ := res["failed"].([]any)
	res["failed"] = append(list, failed...)
	return c.AsyncAction.UpdateOneID(jobID).SetResult(res).Exec(ctx)
}

// importResult is the finished import's result.
func importResult(j *ent.AsyncAction, failure error) map[string]any {
	failed, _ := j.Result["failed"].([]any)
	if failed == nil {
		failed = []any{}
	}
	res := map[string]any{"done_count": j.Done - len(failed), "failed_count": len(failed), "failed": failed,
		"message": fmt.Sprintf("%d order(s) imported successfully, %d failed.", j.Done-len(failed), len(failed))}
	if failure != nil {
		res["message"] = failure.Error()
	}
	return res
}

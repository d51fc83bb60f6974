package order

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
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
	j, err := job.Schedule(ctx, JobOrdersImport, nil, orders, len(orders))
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

// runImport writes the job's orders a batch per transaction; an order
// refused now (an unknown customer id) is recorded and skipped.
func runImport(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	orders, err := job.Items[*OrderInput](j, "order")
	if err != nil {
		return err
	}
	return job.RunRows(ctx, w, j, "failed", func(ctx context.Context, i int) (job.RowOutcome, error) {
		_, err := write(ctx, orders[i], imported)
		return job.RowFailure(err, func(e *apperr.Error) map[string]any {
			return map[string]any{"index": i, "source_id": orders[i].SourceID, "error": job.ErrorEntry(e)}
		})
	})
}

// importResult is the finished import's result.
func importResult(j *ent.AsyncAction, failure error) map[string]any {
	return job.BulkResult(j, failure, "failed", "order", "imported")
}

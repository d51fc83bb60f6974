package job

import (
	"context"
	"fmt"
	"time"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// AsyncActionByID returns a job of the caller's project.
func AsyncActionByID(ctx context.Context, id string) (*ent.AsyncAction, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	job, err := c.AsyncAction.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("async_action", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up async action: %w", err)
	}
	return job, nil
}

// AsyncActions lists the caller's jobs as a Relay connection.
func AsyncActions(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.AsyncActionOrder, where *ent.AsyncActionWhereInput) (*ent.AsyncActionConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.AsyncAction.Query().Paginate(ctx, after, first, before, last,
		ent.WithAsyncActionOrder(orderBy), ent.WithAsyncActionFilter(where.Filter))
}

// Progress is the percentage of a job's work done (0-100).
func Progress(job *ent.AsyncAction) int {
	if job.Total == 0 { // a job without a known size (an export)
		if job.Status == asyncaction.StatusDONE {
			return 100
		}
		return 0
	}
	return job.Done * 100 / job.Total
}

// ListAsyncActions is GET /v1/async-actions: the caller's newest jobs
// (limit 1-100, default 10) created before endDate when given.
func ListAsyncActions(ctx context.Context, limit *int, endDate *time.Time) ([]*ent.AsyncAction, error) {
	n, _, err := page.Offset(limit, nil)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.AsyncAction.Query()
	if endDate != nil {
		q.Where(asyncaction.CreatedAtLT(*endDate))
	}
	jobs, err := q.Order(ent.Desc(asyncaction.FieldCreatedAt), ent.Desc(asyncaction.FieldID)).Limit(n).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing async actions: %w", err)
	}
	return jobs, nil
}

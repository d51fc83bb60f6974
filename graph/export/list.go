package export

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Listing and deleting exports (REST GET /v1/exports, DELETE
// /v1/exports/{exportId}; GraphQL exportsList, deleteExport).

// ExportList is a page of the caller's exports and how many there are.
type ExportList struct {
	Exports []*ent.Export `json:"exports"`
	Total   int           `json:"total"`
}

// exportOrders are the documented list orders.
var exportOrders = map[string]func(*ent.ExportQuery){
	"created_at":  func(q *ent.ExportQuery) { q.Order(ent.Asc(export.FieldCreatedAt), ent.Asc(export.FieldID)) },
	"-created_at": func(q *ent.ExportQuery) { q.Order(ent.Desc(export.FieldCreatedAt), ent.Desc(export.FieldID)) },
	"status":      func(q *ent.ExportQuery) { q.Order(ent.Asc(export.FieldStatus), ent.Desc(export.FieldCreatedAt)) },
	"-status":     func(q *ent.ExportQuery) { q.Order(ent.Desc(export.FieldStatus), ent.Desc(export.FieldCreatedAt)) },
}

// List is one page of the caller's exports (limit 1-100, default 10; page
// 1-99), newest first unless order says otherwise; a page reads only its
// rows (and the count).
func List(ctx context.Context, limit, pageNo *int, order *string) (*ExportList, error) {
	n, offset, err := page.Offset(limit, pageNo)
	if err != nil {
		return nil, err
	}
	by := "-created_at"
	if order != nil && *order != "" {
		by = *order
	}
	sort, ok := exportOrders[by]
	if !ok {
		return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, -created_at, status, -status")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	// Capped like every v1 total (docs/architecture.md, "Lists at a
	// million rows"): exact up to ent.TotalCountCap.
	total, err := c.Export.Query().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, fmt.Errorf("counting exports: %w", err)
	}
	q := c.Export.Query()
	sort(q)
	list, err := q.Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing exports: %w", err)
	}
	return &ExportList{Exports: list, Total: total}, nil
}

// Delete removes one of the caller's exports and its file; 404 when the
// project has no such export. A job still writing it fails (its export is
// gone).
func Delete(ctx context.Context, id string) (string, error) {
	exp, err := ByID(ctx, id)
	if err != nil {
		return "", err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.ExportChunk.Delete().Where(exportchunk.ExportID(exp.ID)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting export file: %w", err)
	}
	if err := c.Export.DeleteOne(exp).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting export: %w", err)
	}
	return exp.ID, nil
}

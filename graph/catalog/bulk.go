package catalog

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/job"
)

// Async bulk updates of products (REST POST /v1/products/bulk/async and
// /v1/products/metadata/async): the request is checked and stored with
// the job, answered 202 at once, and the worker upserts the products by
// source_id in committed batches. An unknown source_id is created
// ("upserted": found false, updated true in the job's result).

// Async action types of the catalogue's jobs.
const (
	JobProductsBulkUpdate     = "PRODUCTS.BULK_UPDATE"
	JobProductsMetadataUpdate = "PRODUCTS.METADATA_UPDATE"
)

// MaxBulkItems bounds the products of one bulk request (the 10 MB body
// limit comes first in practice).
const MaxBulkItems = job.MaxBulkRows

// ProductsMetadataInput is the body of REST POST
// /v1/products/metadata/async: every listed source_id gets the metadata
// keys (merged into the product's metadata; other keys stay).
type ProductsMetadataInput struct {
	SourceIDs []string       `json:"source_ids"`
	Metadata  map[string]any `json:"metadata"`
}

// metadataItem is one product of a PRODUCTS.METADATA_UPDATE job.
type metadataItem struct {
	SourceID string         `json:"source_id"`
	Metadata map[string]any `json:"metadata"`
}

// UpdateProductsInBulk schedules a PRODUCTS.BULK_UPDATE async action:
// each item (source_id required) is upserted with its sent fields. The
// items are checked now (400 naming the first bad one); an empty list is
// a job with nothing to do, as the real service accepts it.
func UpdateProductsInBulk(ctx context.Context, items []*ProductInput) (*ent.AsyncAction, error) {
	if len(items) > MaxBulkItems {
		return nil, apperr.InvalidPayload("Payload may hold at most %d products, got %d", MaxBulkItems, len(items))
	}
	for i, it := range items {
		prefix := fmt.Sprintf("[%d]", i)
		if it == nil || it.SourceID == nil {
			return nil, apperr.InvalidPayload("Property %s.source_id is required", prefix)
		}
		it.ID = nil
		if err := it.validate(prefix); err != nil {
			return nil, err
		}
	}
	return schedule(ctx, JobProductsBulkUpdate, items, len(items))
}

// UpdateProductsMetadataInBulk schedules a PRODUCTS.METADATA_UPDATE async
// action: every source_id gets the metadata keys. An empty body is a job
// with nothing to do.
func UpdateProductsMetadataInBulk(ctx context.Context, in ProductsMetadataInput) (*ent.AsyncAction, error) {
	if len(in.SourceIDs) > MaxBulkItems {
		return nil, apperr.InvalidPayload("Property .source_ids may hold at most %d items, got %d", MaxBulkItems, len(in.SourceIDs))
	}
	if len(in.SourceIDs) > 0 && in.Metadata == nil {
		return nil, apperr.InvalidPayload("Payload should have required property 'metadata'")
	}
	items := make([]metadataItem, len(in.SourceIDs))
	for i, src := range in.SourceIDs {
		if err := checkRef(fmt.Sprintf(".source_ids[%d]", i), &src); err != nil {
			return nil, err
		}
		items[i] = metadataItem{SourceID: src, Metadata: in.Metadata}
	}
	return schedule(ctx, JobProductsMetadataUpdate, items, len(items))
}

// JobHandlers are the catalogue's job handlers by type, registered with
// the job runner at wiring (graph/wiring.go).
func JobHandlers() map[string]job.Handler {
	handlers := map[string]job.Handler{
		JobProductsBulkUpdate:     {Run: runBulkUpdate, Result: bulkResult},
		JobProductsMetadataUpdate: {Run: runMetadataUpdate, Result: bulkResult},
	}
	for typ, h := range csvJobHandlers() {
		handlers[typ] = h
	}
	return handlers
}

// schedule stores a bulk job over items (n of them).
func schedule(ctx context.Context, typ string, items any, n int) (*ent.AsyncAction, error) {
	return job.Schedule(ctx, typ, nil, items, n)
}

// items decodes the items stored with a job by schedule.
func items[T any](j *ent.AsyncAction) ([]T, error) { return job.Items[T](j, "catalogue") }

// runBulkUpdate upserts the job's products one batch at a time.
func runBulkUpdate(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	list, err := items[ProductInput](j)
	if err != nil {
		return err
	}
	return runBatches(ctx, w, j, func(ctx context.Context, c *ent.Client, i int) (bool, error) {
		_, created, err := upsertProduct(ctx, c, &list[i])
		return !created, err
	}, func(i int) string { return *list[i].SourceID })
}

// runMetadataUpdate merges the job's metadata into its products one batch
// at a time; an unknown source_id becomes a product with that metadata.
func runMetadataUpdate(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	list, err := items[metadataItem](j)
	if err != nil {
		return err
	}
	return runBatches(ctx, w, j, func(ctx context.Context, c *ent.Client, i int) (bool, error) {
		it := list[i]
		p, err := c.Product.Query().Where(product.SourceID(it.SourceID)).Only(ctx)
		if ent.IsNotFound(err) {
			_, created, err := upsertProduct(ctx, c, &ProductInput{SourceID: &it.SourceID, Metadata: it.Metadata})
			return !created, err
		}
		if err != nil {
			return false, wrap("reading product", err)
		}
		merged := make(map[string]any, len(p.Metadata)+len(it.Metadata))
		for k, v := range p.Metadata {
			merged[k] = v
		}
		for k, v := range it.Metadata {
			merged[k] = v
		}
		_, err = updateProduct(ctx, p, &ProductInput{Metadata: merged})
		return true, err
	}, func(i int) string { return list[i].SourceID })
}

// runBatches handles items job.Done..job.Total-1 (job.RunRows) and
// lists each product's outcome in the result. each reports whether the
// product existed; a caller-facing error is that product's failure
// (recorded, the job goes on), any other fails the batch (retried by the
// runner when transient).
func runBatches(ctx context.Context, w *job.Worker, j *ent.AsyncAction,
	each func(ctx context.Context, c *ent.Client, i int) (found bool, err error), sourceID func(i int) string) error {
	return job.RunRows(ctx, w, j, "results", func(ctx context.Context, i int) (job.RowOutcome, error) {
		c, err := store.Client(ctx)
		if err != nil {
			return job.RowOutcome{}, err
		}
		found, err := each(ctx, c, i)
		entry := map[string]any{"source_id": sourceID(i), "found": found, "updated": err == nil}
		if err != nil {
			e, ok := apperr.As(err)
			if !ok {
				return job.RowOutcome{}, err
			}
			entry["error"] = job.ErrorEntry(e)
		}
		return job.RowOutcome{Entry: entry, Failed: err != nil}, nil
	})
}

// bulkResult is the finished job's result: counts, a message and the
// per-product outcomes (the first job.MaxReportedEntries).
func bulkResult(j *ent.AsyncAction, failure error) map[string]any {
	return job.BulkResult(j, failure, "results", "product", "updated")
}

package catalog

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/observe"
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

const (
	// MaxBulkItems bounds the products of one bulk request (the 10 MB
	// body limit comes first in practice).
	MaxBulkItems = 100_000
	// bulkBatch is the number of products per committed transaction.
	bulkBatch = 100
	// maxReportedResults bounds the per-product entries of a job's result
	// (the counts cover them all).
	maxReportedResults = 1000
)

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
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(items)
	if err != nil {
		return nil, wrap("encoding bulk items", err)
	}
	var requestID *string
	if id := observe.RequestIDFromContext(ctx); id != "" {
		requestID = &id
	}
	j, err := c.AsyncAction.Create().SetType(typ).SetParams(&jsonfield.GenerationParams{Items: raw}).
		SetTotal(n).SetNillableRequestID(requestID).Save(ctx)
	if err != nil {
		return nil, wrap("scheduling "+typ, err)
	}
	return j, nil
}

// items decodes the items stored with a job by schedule.
func items[T any](j *ent.AsyncAction) ([]T, error) {
	var out []T
	if j.Total == 0 {
		return out, nil
	}
	if j.Params == nil || json.Unmarshal(j.Params.Items, &out) != nil || len(out) != j.Total {
		return nil, fmt.Errorf("job %s: unreadable items", j.ID)
	}
	return out, nil
}

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

// runBatches handles items job.Done..job.Total-1, bulkBatch per
// transaction, and records each product's outcome with the batch. each
// reports whether the product existed; a caller-facing error is that
// product's failure (recorded, the job goes on), any other fails the
// batch (retried by the runner when transient).
func runBatches(ctx context.Context, w *job.Worker, j *ent.AsyncAction,
	each func(ctx context.Context, c *ent.Client, i int) (found bool, err error), sourceID func(i int) string) error {
	for done := j.Done; done < j.Total; {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, end := done, min(done+bulkBatch, j.Total)
		n, err := w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
			c, err := store.Client(ctx)
			if err != nil {
				return 0, err
			}
			var entries []any
			failed := 0
			for i := start; i < end; i++ {
				found, err := each(ctx, c, i)
				entry := map[string]any{"source_id": sourceID(i), "found": found, "updated": err == nil}
				if err != nil {
					e, ok := apperr.As(err)
					if !ok {
						return 0, err
					}
					entry["error"] = map[string]any{"key": e.Key, "message": e.Message, "details": e.Details}
					failed++
				}
				entries = append(entries, entry)
			}
			return end - start, recordResults(ctx, c, j.ID, entries, failed)
		})
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// recordResults adds a batch's outcomes to the job's result, in the
// batch's transaction.
func recordResults(ctx context.Context, c *ent.Client, jobID string, entries []any, failed int) error {
	cur, err := c.AsyncAction.Get(ctx, jobID)
	if err != nil {
		return wrap("reading job result", err)
	}
	res := map[string]any{}
	for k, v := range cur.Result {
		res[k] = v
	}
	list, _ := res["results"].([]any)
	for _, e := range entries {
		if len(list) < maxReportedResults {
			list = append(list, e)
		}
	}
	res["results"], res["failed_count"] = list, count(res["failed_count"])+failed
	if err := c.AsyncAction.UpdateOneID(jobID).SetResult(res).Exec(ctx); err != nil {
		return wrap("recording job results", err)
	}
	return nil
}

// bulkResult is the finished job's result: counts, a message and the
// per-product outcomes (the first maxReportedResults).
func bulkResult(j *ent.AsyncAction, failure error) map[string]any {
	failed := count(j.Result["failed_count"])
	list, _ := j.Result["results"].([]any)
	if list == nil {
		list = []any{}
	}
	res := map[string]any{"done_count": j.Done - failed, "failed_count": failed, "results": list,
		"message": fmt.Sprintf("%d product(s) updated successfully, %d failed.", j.Done-failed, failed)}
	if failure != nil {
		res["message"] = failure.Error()
	}
	return res
}

// count reads a count stored in a JSON result.
func count(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

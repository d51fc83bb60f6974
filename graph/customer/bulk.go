package customer

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/job"
)

// Bulk updates of customers (REST POST /v1/customers/bulk/async and
// /v1/customers/metadata/async; docs/imports.md): the list is stored with
// an async action and the worker upserts the customers by source_id in
// committed batches (graph/job/bulk.go), each through the use case of
// POST /v1/customers, so a row meets the checks of a single request and
// two imports of one source_id agree on one customer (the upsert is one
// INSERT … ON CONFLICT). A row that fails is listed in the result's
// errors; the others are written.

// Async action types of the customers' bulk jobs.
const (
	JobCustomersBulkUpdate     = "CUSTOMERS.BULK_UPDATE"
	JobCustomersMetadataUpdate = "CUSTOMERS.METADATA_UPDATE"
	JobCustomersImportCSV      = "CUSTOMERS.IMPORT_CSV"
)

// CustomersMetadataInput is the body of REST POST
// /v1/customers/metadata/async: every listed source_id gets the metadata
// keys (other keys stay); an unknown source_id becomes a customer.
type CustomersMetadataInput struct {
	SourceIDs []string       `json:"source_ids"`
	Metadata  map[string]any `json:"metadata"`
}

// UpdateCustomersInBulk schedules a CUSTOMERS.BULK_UPDATE: each item is
// upserted by its source_id with the fields it sends. Only the list's
// size is checked now; each item's problems are reported by the job.
func UpdateCustomersInBulk(ctx context.Context, items []*CustomerInput) (*ent.AsyncAction, error) {
	if err := job.CheckBulkSize(len(items)); err != nil {
		return nil, err
	}
	for i, it := range items {
		if it == nil {
			return nil, apperr.InvalidPayload("Property [%d] must be an object", i)
		}
		it.ID = nil // customers are named by source_id here
	}
	return job.Schedule(ctx, JobCustomersBulkUpdate, nil, items, len(items))
}

// UpdateCustomersMetadataInBulk schedules a CUSTOMERS.METADATA_UPDATE.
func UpdateCustomersMetadataInBulk(ctx context.Context, in CustomersMetadataInput) (*ent.AsyncAction, error) {
	if err := job.CheckBulkSize(len(in.SourceIDs)); err != nil {
		e, _ := apperr.As(err)
		return nil, apperr.InvalidPayload("Property .source_ids: %s", e.Details)
	}
	if in.Metadata == nil {
		return nil, apperr.InvalidPayload("Payload should have required property 'metadata'")
	}
	items := make([]CustomerInput, len(in.SourceIDs))
	for i := range in.SourceIDs {
		items[i] = CustomerInput{SourceID: &in.SourceIDs[i], Metadata: in.Metadata}
	}
	return job.Schedule(ctx, JobCustomersMetadataUpdate, nil, items, len(items))
}

// JobHandlers are the customers' job handlers by type, registered at
// wiring (graph/wiring.go).
func JobHandlers() map[string]job.Handler {
	return map[string]job.Handler{
		JobCustomersBulkUpdate:     {Run: runBulkUpdate, Result: bulkResult},
		JobCustomersMetadataUpdate: {Run: runBulkUpdate, Result: bulkResult},
		JobCustomersImportCSV:      {Run: runImportCSV, Result: importResult, Finished: job.DeleteUploadWhenFinished},
	}
}

// runBulkUpdate upserts the job's customers a batch per transaction
// (merging the metadata of a METADATA_UPDATE).
func runBulkUpdate(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	list, err := job.Items[CustomerInput](j, "customer")
	if err != nil {
		return err
	}
	merge := j.Type == JobCustomersMetadataUpdate
	return job.RunRows(ctx, w, j, "errors", func(ctx context.Context, i int) (job.RowOutcome, error) {
		in := list[i]
		sourceID := ""
		if in.SourceID != nil {
			sourceID = *in.SourceID
		}
		err := upsertRow(ctx, in, merge)
		return job.RowFailure(err, func(e *apperr.Error) map[string]any {
			entry := job.ErrorEntry(e)
			entry["source_id"] = sourceID
			return entry
		})
	})
}

// upsertRow writes one customer by its source_id; merge keeps the stored
// metadata keys the row does not set.
func upsertRow(ctx context.Context, in CustomerInput, merge bool) error {
	if in.SourceID == nil || *in.SourceID == "" {
		return apperr.InvalidPayload("Property .source_id is required")
	}
	if !merge {
		_, err := UpsertCustomer(ctx, in)
		return err
	}
	if err := ValidateCustomer(&in); err != nil {
		return err
	}
	cust, err := ResolveCustomer(ctx, &CustomerInput{SourceID: in.SourceID})
	if err != nil {
		return err
	}
	// Under the customer's lock, so concurrent merges keep each other's keys.
	if err := store.LockKey(ctx, "customer:"+cust.ID); err != nil {
		return err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if cust, err = c.Customer.Query().Where(customer.ID(cust.ID)).Only(ctx); err != nil {
		return fmt.Errorf("reading customer: %w", err)
	}
	merged := make(map[string]any, len(cust.Metadata)+len(in.Metadata))
	for k, v := range cust.Metadata {
		merged[k] = v
	}
	for k, v := range in.Metadata {
		merged[k] = v
	}
	_, err = UpdateCustomer(ctx, cust.ID, CustomerInput{Metadata: merged})
	return err
}

// bulkResult is a finished bulk update's result: counts and the errors.
func bulkResult(j *ent.AsyncAction, failure error) map[string]any {
	res := job.BulkResult(j, failure, "errors", "customer", "updated")
	res["reports"] = []any{} // the reference's report files: the errors are listed inline instead
	return res
}

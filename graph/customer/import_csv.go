package customer

import (
	"context"
	"encoding/csv"
	"io"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/job"
)

// Customers from a CSV file (REST POST /v1/customers/importCSV, GraphQL
// importCustomersCSV; docs/imports.md): the file is streamed into the job
// (graph/job/bulk_csv.go); each row is upserted through the use case of
// POST /v1/customers (by source_id when the row has one, by id when it
// names one, else a new customer). A bad row is reported by its row
// number (the header not counted); the others are written.

// MaxCustomerImportRows bounds the rows of one customer CSV.
const MaxCustomerImportRows = 1_000_000

// customerCSVColumns are the standard columns (lower case, spaces as
// underscores); any other column is a metadata key (its values text).
var customerCSVColumns = map[string]bool{"id": true, "name": true, "email": true, "phone": true, "birthdate": true,
	"birthday": true, "source_id": true, "description": true, "address_line_1": true, "address_line_2": true,
	"address_postal_code": true, "address_city": true, "address_state": true, "address_country": true}

// ImportCustomersCSV schedules a CUSTOMERS.IMPORT_CSV of the file. It must
// run in a transaction (the file, its row count and the job commit
// together). A file without rows or over MaxCustomerImportRows is refused.
func ImportCustomersCSV(ctx context.Context, file io.Reader) (*ent.AsyncAction, error) {
	j, err := job.Schedule(ctx, JobCustomersImportCSV, nil, struct{}{}, 0)
	if err != nil {
		return nil, err
	}
	return job.StoreCSV(ctx, j, file, customerCSVHeader, MaxCustomerImportRows)
}

// customerExportOnlyColumns are the columns of a customer export
// (exports.json, ExportCustomerFields) an import does not take: dates and
// counters the importing service keeps itself. They are read and ignored,
// not stored as metadata keys, so an export's file imports unchanged
// (docs/migrating.md).
var customerExportOnlyColumns = map[string]bool{"object": true, "created_at": true, "updated_at": true,
	"redemptions_total_redeemed": true, "redemptions_total_failed": true, "redemptions_total_succeeded": true,
	"redemptions_total_rolled_back": true, "redemptions_total_rollback_failed": true,
	"redemptions_total_rollback_succeeded": true, "orders_total_amount": true, "orders_total_count": true,
	"orders_average_amount": true, "orders_last_order_amount": true, "orders_last_order_date": true,
	"loyalty_points": true, "loyalty_referred_customers": true}

// ignoredCustomerColumn marks an export-only column in a header.
const ignoredCustomerColumn = "\x00ignored "

// customerCSVHeader reads the header: standard columns normalized, an
// export's `metadata` (JSON) and export-only columns marked, metadata keys
// as written (`metadata.<key>` as its key).
func customerCSVHeader(r *csv.Reader) ([]string, error) {
	return job.CSVColumns(r, func(col string) string {
		n := strings.ReplaceAll(strings.ToLower(col), " ", "_")
		switch {
		case customerCSVColumns[n]:
			return n
		case job.IsMetadataJSONColumn(col):
			return job.MetadataJSONColumn
		case customerExportOnlyColumns[n]:
			return ignoredCustomerColumn + n
		}
		if key, ok := strings.CutPrefix(col, "metadata."); ok && key != "" {
			return key
		}
		return col
	})
}

// runImportCSV imports the job's file a batch per transaction.
func runImportCSV(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	return job.RunCSVRows(ctx, w, j, customerCSVHeader, "failed", importCustomerRow)
}

// importCustomerRow upserts one row's customer.
func importCustomerRow(ctx context.Context, header []string, r job.CSVRow) (job.RowOutcome, error) {
	in, rowErr := customerCSVRow(header, r.Fields)
	sourceID := ""
	if in.SourceID != nil {
		sourceID = *in.SourceID
	}
	entry := func(reason string) map[string]any {
		return map[string]any{"source_id": sourceID, "row": r.Row, "reason": reason}
	}
	if bad := job.ReportCSVRow(header, r, entry); bad != nil {
		return *bad, nil
	}
	if rowErr != nil {
		return job.Failure(entry(rowErr.Error())), nil
	}
	_, err := UpsertCustomer(ctx, in)
	return job.RowFailure(err, func(e *apperr.Error) map[string]any {
		if e.Details != "" {
			return entry(e.Details)
		}
		return entry(e.Message)
	})
}

// customerCSVRow reads a row into a customer input. A row with a
// source_id is upserted by it: its id (an export's, perhaps another
// service's) is not used.
func customerCSVRow(header, rec []string) (CustomerInput, error) {
	var in CustomerInput
	var err error
	addr := &jsonfield.CustomerAddress{}
	hasAddr := false
	for i, col := range header {
		if i >= len(rec) {
			break
		}
		v := strings.TrimSpace(rec[i])
		if v == "" {
			continue
		}
		s := &v
		switch col {
		case "id":
			in.ID = s
		case "source_id":
			in.SourceID = s
		case "name":
			in.Name = s
		case "email":
			in.Email = s
		case "phone":
			in.Phone = s
		case "description":
			in.Description = s
		case "birthdate", "birthday":
			in.Birthday = s
		case "address_line_1":
			addr.Line1, hasAddr = s, true
		case "address_line_2":
			addr.Line2, hasAddr = s, true
		case "address_postal_code":
			addr.PostalCode, hasAddr = s, true
		case "address_city":
			addr.City, hasAddr = s, true
		case "address_state":
			addr.State, hasAddr = s, true
		case "address_country":
			addr.Country, hasAddr = s, true
		default:
			if strings.HasPrefix(col, ignoredCustomerColumn) {
				continue
			}
			var merr error
			if in.Metadata, merr = job.AddMetadataColumn(in.Metadata, col, v); merr != nil {
				err = merr
			}
		}
	}
	if hasAddr {
		in.Address = addr
	}
	if in.SourceID != nil {
		in.ID = nil
	}
	return in, err
}

// importResult is a finished CSV import's result.
func importResult(j *ent.AsyncAction, failure error) map[string]any {
	return job.BulkResult(j, failure, "failed", "customer", "imported")
}

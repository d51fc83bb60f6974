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

// customerCSVHeader reads the header: standard columns normalized,
// metadata keys as written.
func customerCSVHeader(r *csv.Reader) ([]string, error) {
	return job.CSVColumns(r, func(col string) string {
		if n := strings.ReplaceAll(strings.ToLower(col), " ", "_"); customerCSVColumns[n] {
			return n
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
	in := customerCSVRow(header, r.Fields)
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
	_, err := UpsertCustomer(ctx, in)
	return job.RowFailure(err, func(e *apperr.Error) map[string]any {
		if e.Details != "" {
			return entry(e.Details)
		}
		return entry(e.Message)
	})
}

// customerCSVRow reads a row into a customer input.
func customerCSVRow(header, rec []string) CustomerInput {
	var in CustomerInput
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
			if in.Metadata == nil {
				in.Metadata = map[string]any{}
			}
			in.Metadata[col] = v
		}
	}
	if hasAddr {
		in.Address = addr
	}
	return in
}

// importResult is a finished CSV import's result.
func importResult(j *ent.AsyncAction, failure error) map[string]any {
	return job.BulkResult(j, failure, "failed", "customer", "imported")
}

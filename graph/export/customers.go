package export

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	entcustomer "github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/clock"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// Customer exports (POST /v1/exports with exported_object "customer"): a
// CSV of the project's customers through the export machinery, in keyset
// pages (keyset.go).

// JobExportCustomers is the async action type of a customers export.
const JobExportCustomers = "EXPORT.CUSTOMERS"

// CustomerExportFields are the columns a customers export may have (plus
// metadata.<key>): the documented ones this server stores.
// DefaultCustomerExportFields are those of a request that names none.
var (
	CustomerExportFields = []string{"name", "id", "description", "email", "source_id", "created_at", "updated_at",
		"phone", "birthday", "birthdate", "address_city", "address_state", "address_line_1", "address_line_2",
		"address_country", "address_postal_code", "orders_total_amount", "orders_total_count", "orders_average_amount",
		"orders_last_order_amount", "orders_last_order_date", "metadata"}
	DefaultCustomerExportFields = []string{"name", "source_id"}
)

// RunCustomersExport writes a customers export's CSV.
func RunCustomersExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	return runKeysetExport(ctx, w, job, DefaultCustomerExportFields, func(ctx context.Context, ch *exportChunker, exp *ent.Export, names []string, desc bool, pageSize int) error {
		var preds []predicate.Customer
		if f, ok := exp.Parameters["filters"].(map[string]any); ok {
			sel, err := parseFilters(f, customerFilters, job.ProjectID)
			if err != nil {
				return err
			}
			for _, p := range sel {
				preds = append(preds, predicate.Customer(p))
			}
		}
		sort := exportSort(exp.Parameters["order"], entcustomer.Table, customerOrders)
		return writeKeyset(ctx, ch, keysetTable[*ent.Customer]{
			page: func(ctx context.Context, after func(*entsql.Selector), limit int) ([]*ent.Customer, error) {
				q := w.Client.Customer.Query().Where(entcustomer.ProjectID(job.ProjectID)).Where(preds...)
				if after != nil {
					q.Where(after)
				}
				rows, err := q.Order(keysetOrder[entcustomer.OrderOption](sort, desc)...).Limit(limit).All(ctx)
				if err != nil {
					return nil, fmt.Errorf("reading customers: %w", err)
				}
				return rows, nil
			},
			key:  func(c *ent.Customer) (time.Time, string) { return c.CreatedAt, c.ID },
			line: appendCustomerLine,
			sort: sort,
		}, names, desc, pageSize)
	})
}

// runKeysetExport is the frame of a keyset export job: the export marked
// IN_PROGRESS, its fields (defaults when none), the chunker resumed after
// the committed position, write, and the wait for the last commit.
func runKeysetExport(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction, defaults []string,
	write func(ctx context.Context, ch *exportChunker, exp *ent.Export, names []string, desc bool, pageSize int) error) error {
	sweepExportFiles(ctx, w)
	exp, fields, ch, err := beginRun(ctx, w, job, defaults)
	if err != nil || ch == nil {
		return err
	}
	desc := exportDesc(exp.Parameters["order"])
	err = write(ctx, ch, exp, fields, desc, min(w.BatchSize, maxExportBatch))
	if werr := ch.wait(); err == nil {
		err = werr
	}
	return err
}

// appendCustomerLine appends c's CSV line.
func appendCustomerLine(b []byte, names []string, c *ent.Customer) []byte {
	addr := c.Address
	if addr == nil {
		addr = &jsonfield.CustomerAddress{}
	}
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		switch n {
		case "id":
			b = appendCSVField(b, c.ID)
		case "name":
			b = appendCSVField(b, textOf(c.Name))
		case "description":
			b = appendCSVField(b, textOf(c.Description))
		case "email":
			b = appendCSVField(b, textOf(c.Email))
		case "source_id":
			b = appendCSVField(b, textOf(c.SourceID))
		case "phone":
			b = appendCSVField(b, textOf(c.Phone))
		case "birthday", "birthdate":
			b = appendCSVField(b, textOf(c.Birthday))
		case "created_at":
			b = c.CreatedAt.UTC().AppendFormat(b, clock.Layout)
		case "updated_at":
			if c.UpdatedAt != nil {
				b = c.UpdatedAt.UTC().AppendFormat(b, clock.Layout)
			}
		case "address_city":
			b = appendCSVField(b, textOf(addr.City))
		case "address_state":
			b = appendCSVField(b, textOf(addr.State))
		case "address_line_1":
			b = appendCSVField(b, textOf(addr.Line1))
		case "address_line_2":
			b = appendCSVField(b, textOf(addr.Line2))
		case "address_country":
			b = appendCSVField(b, textOf(addr.Country))
		case "address_postal_code":
			b = appendCSVField(b, textOf(addr.PostalCode))
		case "orders_total_amount":
			b = strconv.AppendInt(b, c.OrdersTotalAmount, 10)
		case "orders_total_count":
			b = strconv.AppendInt(b, int64(c.OrdersTotalCount), 10)
		case "orders_average_amount":
			if c.OrdersTotalCount > 0 {
				b = strconv.AppendInt(b, c.OrdersTotalAmount/int64(c.OrdersTotalCount), 10)
			}
		case "orders_last_order_amount":
			if c.OrdersLastAmount != nil {
				b = strconv.AppendInt(b, *c.OrdersLastAmount, 10)
			}
		case "orders_last_order_date":
			if c.OrdersLastDate != nil {
				b = c.OrdersLastDate.UTC().AppendFormat(b, clock.Layout)
			}
		default:
			b = appendMetadataField(b, n, c.Metadata)
		}
	}
	return append(b, '\n')
}

// appendMetadataField appends metadata (as JSON) or metadata.<key> (the
// value; JSON unless a string).
func appendMetadataField(b []byte, name string, metadata map[string]any) []byte {
	if name == "metadata" {
		m, _ := json.Marshal(metadata)
		return appendCSVField(b, string(m))
	}
	k, ok := strings.CutPrefix(name, "metadata.")
	if !ok {
		return b
	}
	switch v := metadata[k].(type) {
	case nil:
	case string:
		b = appendCSVField(b, v)
	default:
		m, _ := json.Marshal(v)
		b = appendCSVField(b, string(m))
	}
	return b
}

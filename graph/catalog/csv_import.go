package catalog

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/job"
)

// CSV imports (REST POST /v1/products/importCSV, /v1/skus/importCSV;
// GraphQL importProductsCSV, importSkusCSV): the file is read and checked
// when it comes (400 naming the first bad line, nothing scheduled), its
// rows are stored with an async action, and the worker writes them in
// committed batches.

// Async action types of the CSV imports.
const (
	JobProductsImportCSV = "PRODUCTS.IMPORT_CSV"
	JobSkusImportCSV     = "SKUS.IMPORT_CSV"
)

// productColumns are the product CSV's own columns; any other column is a
// metadata key.
var productColumns = map[string]bool{"name": true, "source_id": true, "price": true, "attributes": true, "image_url": true}

// skuColumns are the SKU CSV's own columns; any other is a metadata key.
var skuColumns = map[string]bool{"source_id": true, "product_id": true, "sku": true, "price": true, "image_url": true, "attributes": true}

// skuRow is one SKU of a SKUS.IMPORT_CSV job.
type skuRow struct {
	SkuInput
	ProductID string `json:"product_id"`
}

// ImportProductsCSV schedules a PRODUCTS.IMPORT_CSV async action. The
// header row names the columns: name (required), source_id, price (cents),
// attributes (a comma-separated list), image_url; any other column is a
// metadata key (values are strings). A row whose source_id exists only
// renames that product; other rows create products.
func ImportProductsCSV(ctx context.Context, file string) (*ent.AsyncAction, error) {
	header, rows, err := readCSV(file, []string{"name"})
	if err != nil {
		return nil, err
	}
	items := make([]ProductInput, len(rows))
	for n, row := range rows {
		line := n + 2
		in := &items[n]
		in.Metadata = map[string]any{}
		for i, col := range header {
			v := strings.TrimSpace(row[i])
			switch {
			case v == "":
			case col == "name":
				in.Name = &v
			case col == "source_id":
				in.SourceID = &v
			case col == "image_url":
				in.ImageURL = &v
			case col == "price":
				if in.Price, err = csvPrice(line, v); err != nil {
					return nil, err
				}
			case col == "attributes":
				for _, a := range strings.Split(v, ",") {
					if a = strings.TrimSpace(a); a != "" {
						in.Attributes = append(in.Attributes, a)
					}
				}
			default:
				in.Metadata[col] = v
			}
		}
		if in.Name == nil {
			return nil, apperr.InvalidPayload("Line %d: the column name is required", line)
		}
		if err := in.validate(""); err != nil {
			return nil, onLine(line, err)
		}
	}
	return schedule(ctx, JobProductsImportCSV, items, len(items))
}

// ImportSkusCSV schedules a SKUS.IMPORT_CSV async action. Columns:
// source_id and product_id (the product's id or source_id) required, sku,
// price (cents), image_url, attributes (a JSON object of strings); any
// other column is a metadata key. An existing SKU (by source_id) of the
// product gets the row's sku and price; a source_id of another product's
// SKU or an unknown product fails that row (reported in the result).
func ImportSkusCSV(ctx context.Context, file string) (*ent.AsyncAction, error) {
	header, rows, err := readCSV(file, []string{"source_id", "product_id"})
	if err != nil {
		return nil, err
	}
	items := make([]skuRow, len(rows))
	for n, row := range rows {
		line := n + 2
		in := &items[n]
		in.Metadata = map[string]any{}
		for i, col := range header {
			v := strings.TrimSpace(row[i])
			switch {
			case v == "":
			case col == "source_id":
				in.SourceID = &v
			case col == "product_id":
				in.ProductID = v
			case col == "sku":
				in.Sku = &v
			case col == "image_url":
				in.ImageURL = &v
			case col == "price":
				if in.Price, err = csvPrice(line, v); err != nil {
					return nil, err
				}
			case col == "attributes":
				if json.Unmarshal([]byte(v), &in.Attributes) != nil {
					return nil, apperr.InvalidPayload("Line %d: attributes must be a JSON object of strings", line)
				}
			default:
				in.Metadata[col] = v
			}
		}
		if in.SourceID == nil || in.ProductID == "" {
			return nil, apperr.InvalidPayload("Line %d: the columns source_id and product_id are required", line)
		}
		if err := in.validate(); err != nil {
			return nil, onLine(line, err)
		}
	}
	return schedule(ctx, JobSkusImportCSV, items, len(items))
}

// csvJobHandlers are the handlers of the CSV imports (in JobHandlers).
func csvJobHandlers() map[string]job.Handler {
	return map[string]job.Handler{
		JobProductsImportCSV: {Run: runProductsCSV, Result: bulkResult},
		JobSkusImportCSV:     {Run: runSkusCSV, Result: bulkResult},
	}
}

// readCSV parses a CSV file with a header row that has the required
// columns; every row has the header's number of fields.
func readCSV(file string, required []string) (header []string, rows [][]string, err error) {
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(file, "\ufeff")))
	r.TrimLeadingSpace = true
	header, err = r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, apperr.InvalidPayload("The CSV file must start with a header row")
	}
	if err != nil {
		return nil, nil, apperr.InvalidPayload("The CSV file cannot be read: %v", err)
	}
	seen := map[string]bool{}
	for i, col := range header {
		col = strings.TrimSpace(col)
		if col == "" || strings.ContainsAny(col, " \t") || seen[col] {
			return nil, nil, apperr.InvalidPayload("Header column %d must be a unique name without spaces, got %q", i+1, col)
		}
		header[i], seen[col] = col, true
	}
	for _, col := range required {
		if !seen[col] {
			return nil, nil, apperr.InvalidPayload("The CSV file must have the column %s", col)
		}
	}
	rows, err = r.ReadAll()
	if err != nil {
		return nil, nil, apperr.InvalidPayload("The CSV file cannot be read: %v", err)
	}
	if len(rows) > MaxBulkItems {
		return nil, nil, apperr.InvalidPayload("The CSV file may hold at most %d rows, got %d", MaxBulkItems, len(rows))
	}
	return header, rows, nil
}

// csvPrice reads a price in cents.
func csvPrice(line int, v string) (*int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, apperr.InvalidPayload("Line %d: price must be an integer (cents), got %q", line, v)
	}
	return &n, nil
}

// runProductsCSV writes the job's products: a known source_id is renamed
// (in one INSERT … ON CONFLICT statement), other rows are created.
func runProductsCSV(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	list, err := items[ProductInput](j)
	if err != nil {
		return err
	}
	return runBatches(ctx, w, j, func(ctx context.Context, c *ent.Client, i int) (bool, error) {
		in := &list[i]
		if in.SourceID == nil {
			_, err := newProduct(c, in).Save(ctx)
			return false, wrapIfNot(err, "creating product")
		}
		if err := bin.CheckFree(ctx, bin.TypeProduct, *in.SourceID); err != nil {
			return false, err // reported as the row's duplicate
		}
		newID := product.DefaultID()
		id, err := newProduct(c, in).SetID(newID).OnConflictColumns(product.FieldProjectID, product.FieldSourceID).
			Update(func(u *ent.ProductUpsert) { u.SetName(*in.Name).SetUpdatedAt(clock.Now()) }).ID(ctx)
		return err == nil && id != newID, wrapIfNot(err, "importing product")
	}, func(i int) string { return deref(list[i].SourceID) })
}

// runSkusCSV writes the job's SKUs under their products.
func runSkusCSV(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	list, err := items[skuRow](j)
	if err != nil {
		return err
	}
	return runBatches(ctx, w, j, func(ctx context.Context, c *ent.Client, i int) (bool, error) {
		row := &list[i]
		p, err := Product(ctx, row.ProductID)
		if err != nil {
			return false, err
		}
		existing, err := c.Sku.Query().Where(sku.SourceID(*row.SourceID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			if err := bin.CheckFree(ctx, bin.TypeSku, *row.SourceID); err != nil {
				return false, err // reported as the row's duplicate
			}
			_, err := newSku(c, p.ID, &row.SkuInput).Save(ctx)
			return false, wrapIfNot(err, "creating SKU")
		case err != nil:
			return false, wrap("reading SKU", err)
		case existing.ProductID != p.ID:
			return true, apperr.Duplicate("sku", fmt.Sprintf("SKU %s belongs to product %s", *row.SourceID, existing.ProductID))
		}
		_, err = updateSku(ctx, existing, &SkuInput{Sku: row.Sku, Price: row.Price})
		return true, err
	}, func(i int) string { return deref(list[i].SourceID) })
}

// onLine names the CSV line in a validation error.
func onLine(line int, err error) error {
	if e, ok := apperr.As(err); ok {
		return apperr.InvalidPayload("Line %d: %s", line, e.Details)
	}
	return err
}

// wrapIfNot wraps a non-nil error with context.
func wrapIfNot(err error, what string) error {
	if err == nil {
		return nil
	}
	return wrap(what, err)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

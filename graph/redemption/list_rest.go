package redemption

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A REST page of the redemption history is one statement: the page's rows
// (a sub-select with the list's filters, order and limit; a deep page's
// skipped rows read by an index-only sub-select, deferredPage), LEFT JOIN
// each entry's customer and voucher with the voucher's campaign and
// category (campaign.JoinVouchers), in the page's order. Each column is
// decoded once by ent's own decoding (ScanTargets / AssignScanned) into
// the entities ent's query with the same columns and edges loads
// (RESTPageInOneStatement off, TestListedRedemptionsAndOrdersAsRead), so
// the answer is the same bytes; ent read them in two statements and
// assembled the joined columns through a map per row. The project's filter
// is explicit on every table (the tenancy interceptor does not reach a
// hand-built statement). The text around the rows' sub-select is built
// once per dialect and order (list_rest_statement.go); the rows are
// decoded by restScanner (list_rest_scan.go).

// RESTPageInOneStatement makes a REST page one statement (restPage); a
// test turns it off to compare its answers with ent's loading.
var RESTPageInOneStatement = true

// restPageColumns are the redemption's columns of a REST page (restListColumns and the ID).
var restPageColumns = append([]string{redemption.FieldID}, restListColumns...)

// restPageCustomerColumns are the customer's (restListCustomerColumns and the ID).
var restPageCustomerColumns = append([]string{customer.FieldID}, restListCustomerColumns...)

// restPage reads a page of the history with the entries' customers and
// vouchers (see above): preds filter, field and desc order (then by id),
// the page at offset of limit rows.
func restPage(ctx context.Context, c *ent.Client, preds []predicate.Redemption, order []redemption.OrderOption,
	field string, desc bool, offset, limit int) ([]*ent.Redemption, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, schema.ErrNoViewer
	}
	dialect := store.Dialect(ctx)
	b := sql.Dialect(dialect)
	t := b.Table(redemption.Table)
	rows := b.Select().From(t).SelectExpr(restRowColumns(dialect, field)).
		Where(sql.EQ(t.C(redemption.FieldProjectID), v.ProjectID))
	keys := keysetColumns(field)
	if offset == 0 || keys != nil {
		for _, p := range preds {
			p(rows)
		}
	}
	if offset > 0 { // the skipped rows are read by an index-only sub-select, with the filters
		deferred, err := deferredPage(ctx, preds, order, keys, desc, offset, limit)
		if err != nil {
			return nil, err
		}
		deferred(rows)
	}
	for _, o := range order {
		o(rows)
	}
	rows.Limit(limit)
	envelope, err := restPageEnvelope(dialect, field, desc)
	if err != nil {
		return nil, err
	}
	rowsQuery, args := rows.Query()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("building the page's rows: %w", err)
	}
	query := envelope.statement(rowsQuery)
	res, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the page: %w", err)
	}
	defer func() { _ = res.Close() }()
	sc, err := newRestScanner(c)
	if err != nil {
		return nil, err
	}
	out := make([]*ent.Redemption, 0, limit)
	for res.Next() {
		red, err := sc.scan(res)
		if err != nil {
			return nil, err
		}
		out = append(out, red)
	}
	if err := res.Err(); err != nil {
		return nil, fmt.Errorf("reading the page: %w", err)
	}
	return out, nil
}

// deferredPage keeps the rows of the page at offset (of limit rows) of a
// statement ordered by order (desc): ordered by the columns keys (never
// NULL, see keysetColumns), the rows from the page's first on, the
// statement keeping its preds (page.DeferredKeyset); else the page's IDs,
// read with preds (page.DeferredOffset).
func deferredPage(ctx context.Context, preds []predicate.Redemption, order []redemption.OrderOption,
	keys []string, desc bool, offset, limit int) (func(*sql.Selector), error) {
	if keys != nil {
		return page.DeferredKeyset(ctx, redemption.Table, preds, keys, desc, offset)
	}
	return page.DeferredOffset(ctx, redemption.Table, preds, order, offset, limit)
}

// keysetColumns are the columns of the order by field (then the id) when
// none is ever NULL; nil for the others (voucher_code, tracking_id,
// customer_id).
func keysetColumns(field string) []string {
	switch field {
	case redemption.FieldCreatedAt:
		return []string{redemption.FieldCreatedAt, redemption.FieldID}
	case redemption.FieldID:
		return []string{redemption.FieldID}
	}
	return nil
}

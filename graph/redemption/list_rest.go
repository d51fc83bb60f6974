package redemption

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"slices"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A REST page of the redemption history is one statement: the page's rows
// (a sub-select with the list's filters, order and limit; a deep page's
// skipped rows read by DeferredOffset's index-only sub-select), LEFT JOIN
// each entry's customer and voucher with the voucher's campaign and
// category (campaign.JoinVouchers), in the page's order. Each column is
// decoded once by ent's own decoding (ScanTargets / AssignScanned) into
// the entities ent's query with the same columns and edges loads
// (RESTPageInOneStatement off, TestListedRedemptionsAndOrdersAsRead), so
// the answer is the same bytes; ent read them in two statements and
// assembled the joined columns through a map per row. The project's filter
// is explicit on every table (the tenancy interceptor does not reach a
// hand-built statement).

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
	b := sql.Dialect(store.Dialect(ctx))
	t := b.Table(redemption.Table)
	inner := restPageColumns
	if !slices.Contains(inner, field) { // the outer statement orders by it too (voucher_code)
		inner = append(slices.Clip(inner), field)
	}
	rows := b.Select(t.Columns(inner...)...).From(t).
		Where(sql.EQ(t.C(redemption.FieldProjectID), v.ProjectID))
	if offset > 0 { // the skipped rows are read by an index-only sub-select, with the filters
		deferred, err := page.DeferredOffset(ctx, redemption.Table, preds, order, offset, limit)
		if err != nil {
			return nil, err
		}
		deferred(rows)
	} else {
		for _, p := range preds {
			p(rows)
		}
	}
	for _, o := range order {
		o(rows)
	}
	rows.Limit(limit)
	r := rows.As("r")
	cu := b.Table(customer.Table).As("r_cu")
	s := b.Select(r.Columns(restPageColumns...)...).From(r).
		LeftJoin(cu).OnP(sql.And(sql.ColumnsEQ(cu.C(customer.FieldID), r.C(redemption.FieldCustomerID)),
		sql.ColumnsEQ(cu.C(customer.FieldProjectID), r.C(redemption.FieldProjectID))))
	s.AppendSelect(cu.Columns(restPageCustomerColumns...)...)
	campaignpkg.JoinVouchers(s, r.C(redemption.FieldVoucherID), r.C(redemption.FieldProjectID), "r")
	by := sql.Asc
	if desc {
		by = sql.Desc
	}
	s.OrderBy(by(r.C(field)), by(r.C(redemption.FieldID)))
	query, args := s.Query()
	res, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the page: %w", err)
	}
	defer func() { _ = res.Close() }()
	out := make([]*ent.Redemption, 0, limit)
	for res.Next() {
		red, err := scanRestRow(c, res)
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

// scanRestRow decodes one row of restPage's statement: the entry with its
// customer and voucher.
func scanRestRow(c *ent.Client, rows interface{ Scan(...any) error }) (*ent.Redemption, error) {
	red, redValues, err := c.Redemption.ScanTargets(restPageColumns)
	if err != nil {
		return nil, err
	}
	cust, custValues, err := c.Customer.ScanTargets(restPageCustomerColumns)
	if err != nil {
		return nil, err
	}
	var custID stdsql.NullString
	custValues[0] = &custID // an entry without a customer joins NULLs
	targets := make([]any, 0, len(redValues)+len(custValues)+48)
	targets = append(append(targets, redValues...), custValues...)
	jv, targets, err := campaignpkg.NewJoinedVoucher(c, targets)
	if err != nil {
		return nil, err
	}
	if err := rows.Scan(targets...); err != nil {
		return nil, fmt.Errorf("scanning the page: %w", err)
	}
	if err := red.AssignScanned(restPageColumns, redValues); err != nil {
		return nil, fmt.Errorf("decoding redemption: %w", err)
	}
	if custID.Valid {
		cust.ID = custID.String
		if err := cust.AssignScanned(restPageCustomerColumns[1:], custValues[1:]); err != nil {
			return nil, fmt.Errorf("decoding customer: %w", err)
		}
		red.Edges.Customer = cust
	}
	if red.Edges.Voucher, err = jv.Voucher(); err != nil {
		return nil, err
	}
	return red, nil
}

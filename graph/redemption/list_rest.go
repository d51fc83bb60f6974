package redemption

import (
	"context"
	"encoding/json"
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
	customerpkg "github.com/promoengine/promoengine/graph/customer"
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
	r := rows.As("r")
	s := b.Select(r.Columns(restPageColumns...)...).From(r)
	customerpkg.JoinCustomers(s, r.C(redemption.FieldCustomerID), r.C(redemption.FieldProjectID), "r", restPageCustomerColumns)
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

// restScanner decodes the rows of restPage's statement. Its targets are
// made once per statement and scanned into on every row (database/sql
// overwrites every target on each Scan, see campaign.JoinedVoucher); the
// entities are new for each row, copied from pristine ones for the
// client's config.
//
// The order document is scanned as its bytes, not by ent: ent decodes a
// json.RawMessage column by validating and copying it, and the page writes
// it as PostgreSQL prints it (rest's redemptionListBody compacts it); the
// entity gets the same bytes as ent's decoding (nil for NULL or empty).
type restScanner struct {
	red        *ent.Redemption
	redColumns []string // restPageColumns but the order
	redValues  []any
	order      []byte
	customer   *customerpkg.JoinedCustomer
	voucher    *campaignpkg.JoinedVoucher
	targets    []any
}

func newRestScanner(c *ent.Client) (*restScanner, error) {
	sc := &restScanner{}
	at := slices.Index(restPageColumns, redemption.FieldOrder)
	sc.redColumns = slices.Delete(slices.Clone(restPageColumns), at, at+1)
	var err error
	if sc.red, sc.redValues, err = c.Redemption.ScanTargets(sc.redColumns); err != nil {
		return nil, err
	}
	targets := make([]any, 0, len(sc.redValues)+1+len(restPageCustomerColumns)+48)
	targets = append(targets, sc.redValues[:at]...)
	targets = append(targets, &sc.order)
	targets = append(targets, sc.redValues[at:]...)
	if sc.customer, targets, err = customerpkg.NewJoinedCustomer(c, restPageCustomerColumns, targets); err != nil {
		return nil, err
	}
	if sc.voucher, sc.targets, err = campaignpkg.NewJoinedVoucher(c, targets); err != nil {
		return nil, err
	}
	return sc, nil
}

// scan decodes one row: the entry with its customer and voucher.
func (sc *restScanner) scan(rows interface{ Scan(...any) error }) (*ent.Redemption, error) {
	if err := rows.Scan(sc.targets...); err != nil {
		return nil, fmt.Errorf("scanning the page: %w", err)
	}
	red := new(ent.Redemption)
	*red = *sc.red
	if err := red.AssignScanned(sc.redColumns, sc.redValues); err != nil {
		return nil, fmt.Errorf("decoding redemption: %w", err)
	}
	if len(sc.order) > 0 { // database/sql made it a copy of its own
		red.Order = json.RawMessage(sc.order)
	}
	var err error
	if red.Edges.Customer, err = sc.customer.Customer(); err != nil {
		return nil, err
	}
	if red.Edges.Voucher, err = sc.voucher.Voucher(); err != nil {
		return nil, err
	}
	return red, nil
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

package publication

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A REST page of publications is one statement: the page's rows (a
// sub-select with the list's filters, order and limit; a deep page from
// its first row on, found by DeferredKeyset's index-only sub-select, so
// that it reads like page 1), LEFT JOIN
// their customers, their vouchers (publication_vouchers) with each
// voucher's campaign and category (campaign.JoinVouchers): one row per
// publication and voucher, in the page's order. Each column is decoded
// once by ent's own decoding (ScanTargets / AssignScanned) into the
// entities the ent query with WithCustomer, WithVouchers and
// WithJoinedVoucherCategories loads, so the answer is the same bytes
// (RESTPageInOneStatement off, TestListedPublicationsAsLoadedByEnt); ent read the same in two statements
// and assembled the joined columns through a map per row, a third of the
// server's CPU of the page. Only the columns the answer shows are read.
// The project's filter is explicit on every table (the tenancy
// interceptor does not reach a hand-built statement).

// restPublicationColumns are the publication columns a REST answer shows
// (rest's publicationJSON), with project_id for the joins.
var restPublicationColumns = []string{
	publication.FieldID, publication.FieldProjectID, publication.FieldCreatedAt, publication.FieldCustomerID,
	publication.FieldTrackingID, publication.FieldMetadata, publication.FieldChannel, publication.FieldSourceID,
	publication.FieldResult, publication.FieldCountForm, publication.FieldVoucherIds, publication.FieldDeletedVouchers,
}

// restCustomerColumns are the customer columns rest's customerJSON shows.
var restCustomerColumns = []string{
	customer.FieldID, customer.FieldCreatedAt, customer.FieldUpdatedAt, customer.FieldSourceID, customer.FieldName,
	customer.FieldDescription, customer.FieldEmail, customer.FieldPhone, customer.FieldBirthday, customer.FieldAddress,
	customer.FieldMetadata, customer.FieldSystemMetadata,
}

// restPage reads a page of publications with their customers and
// vouchers (see above): preds filter, field and desc order (then by id),
// the page at offset of limit rows.
func restPage(ctx context.Context, c *ent.Client, preds []predicate.Publication, order []publication.OrderOption,
	field string, desc bool, offset, limit int) ([]*ent.Publication, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, schema.ErrNoViewer
	}
	b := sql.Dialect(store.Dialect(ctx))
	t := b.Table(publication.Table)
	rows := b.Select(t.Columns(restPublicationColumns...)...).From(t).
		Where(sql.EQ(t.C(publication.FieldProjectID), v.ProjectID))
	for _, p := range preds {
		p(rows)
	}
	if offset > 0 { // the page's first row is found by an index-only sub-select, with the filters
		from, err := page.DeferredKeyset(ctx, publication.Table, preds, keysetColumns(field), desc, offset)
		if err != nil {
			return nil, err
		}
		from(rows)
	}
	for _, o := range order {
		o(rows)
	}
	rows.Limit(limit)
	p := rows.As("p")
	pv := b.Table(publication.VouchersTable).As("p_pv")
	s := b.Select(p.Columns(restPublicationColumns...)...).From(p)
	customerpkg.JoinCustomers(s, p.C(publication.FieldCustomerID), p.C(publication.FieldProjectID), "p", restCustomerColumns)
	s.LeftJoin(pv).On(pv.C(publication.VouchersPrimaryKey[0]), p.C(publication.FieldID))
	campaignpkg.JoinVouchers(s, pv.C(publication.VouchersPrimaryKey[1]), p.C(publication.FieldProjectID), "p")
	by := sql.Asc
	if desc {
		by = sql.Desc
	}
	s.OrderBy(by(p.C(field)), by(p.C(publication.FieldID)))
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
	out := make([]*ent.Publication, 0, limit)
	for res.Next() {
		pub, vch, err := sc.scan(res)
		if err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].ID == pub.ID { // another voucher of the same publication
			pub = out[n-1]
		} else {
			pub.Edges.Vouchers = []*ent.Voucher{}
			out = append(out, pub)
		}
		if vch != nil {
			pub.Edges.Vouchers = append(pub.Edges.Vouchers, vch)
		}
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
type restScanner struct {
	pub       *ent.Publication
	pubValues []any
	customer  *customerpkg.JoinedCustomer
	voucher   *campaignpkg.JoinedVoucher
	targets   []any
}

func newRestScanner(c *ent.Client) (*restScanner, error) {
	sc := &restScanner{}
	var err error
	if sc.pub, sc.pubValues, err = c.Publication.ScanTargets(restPublicationColumns); err != nil {
		return nil, err
	}
	targets := make([]any, 0, len(sc.pubValues)+len(restCustomerColumns)+48)
	targets = append(targets, sc.pubValues...)
	if sc.customer, targets, err = customerpkg.NewJoinedCustomer(c, restCustomerColumns, targets); err != nil {
		return nil, err
	}
	if sc.voucher, sc.targets, err = campaignpkg.NewJoinedVoucher(c, targets); err != nil {
		return nil, err
	}
	return sc, nil
}

// keysetColumns are the columns of the page's order by field: each order
// of the list (created_at, id, customer_id) is of a column that is never
// NULL, then the id, so a deep page can start from its first row
// (page.DeferredKeyset).
func keysetColumns(field string) []string {
	if field == publication.FieldID {
		return []string{publication.FieldID}
	}
	return []string{field, publication.FieldID}
}

// scan decodes one row: the publication with its customer, and the row's
// voucher (nil for a publication without one).
func (sc *restScanner) scan(rows interface{ Scan(...any) error }) (*ent.Publication, *ent.Voucher, error) {
	if err := rows.Scan(sc.targets...); err != nil {
		return nil, nil, fmt.Errorf("scanning the page: %w", err)
	}
	pub := new(ent.Publication)
	*pub = *sc.pub
	if err := pub.AssignScanned(restPublicationColumns, sc.pubValues); err != nil {
		return nil, nil, fmt.Errorf("decoding publication: %w", err)
	}
	var err error
	if pub.Edges.Customer, err = sc.customer.Customer(); err != nil {
		return nil, nil, err
	}
	vch, err := sc.voucher.Voucher()
	return pub, vch, err
}

package redemption

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/redemption"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
)

// restPage's statement is its rows' sub-select (filters, order, limit:
// the only part with arguments) inside a text that depends on nothing but
// the dialect and the order: the select list of the entry's, customer's,
// voucher's, campaign's and category's columns, the joins and the outer
// ORDER BY. Building that text with ent's builder quoted some 80
// identifiers per page, a tenth of the server's CPU of a page; it is built
// once per dialect and order (by the same builder calls, see
// pageEnvelopeOf) and the sub-select written into it.

// pageEnvelope is the text of restPage's statement before and after its
// rows' sub-select (which goes between the parentheses of FROM (…) AS r).
type pageEnvelope struct{ before, after string }

type pageEnvelopeKey struct {
	dialect, field string
	desc           bool
}

// pageEnvelopes holds the envelopes built so far (a handful: dialect ×
// the five orders × direction).
var pageEnvelopes sync.Map // pageEnvelopeKey → pageEnvelope

// pageRowsStandIn names the table of the stand-in sub-select the
// envelope is built around; it is cut out of the text.
const pageRowsStandIn = "promoengine_page_rows_stand_in"

// restPageEnvelope returns the envelope of restPage's statement in
// dialect, ordered by field (then id), descending when desc.
func restPageEnvelope(dialect, field string, desc bool) (pageEnvelope, error) {
	key := pageEnvelopeKey{dialect, field, desc}
	if e, ok := pageEnvelopes.Load(key); ok {
		return e.(pageEnvelope), nil
	}
	e, err := pageEnvelopeOf(dialect, field, desc)
	if err != nil {
		return pageEnvelope{}, err
	}
	pageEnvelopes.Store(key, e)
	return e, nil
}

// pageEnvelopeOf builds the statement around a stand-in sub-select and
// cuts the stand-in out: the outer statement has no arguments, so the
// sub-select's placeholders ($1…) number the same standalone as inside.
func pageEnvelopeOf(dialect, field string, desc bool) (pageEnvelope, error) {
	b := sql.Dialect(dialect)
	standIn := b.Select("*").From(b.Table(pageRowsStandIn))
	r := standIn.As("r")
	s := b.Select(r.Columns(restPageColumns...)...).From(r)
	customerpkg.JoinCustomers(s, r.C(redemption.FieldCustomerID), r.C(redemption.FieldProjectID), "r", restPageCustomerColumns)
	campaignpkg.JoinVouchers(s, r.C(redemption.FieldVoucherID), r.C(redemption.FieldProjectID), "r")
	by := sql.Asc
	if desc {
		by = sql.Desc
	}
	s.OrderBy(by(r.C(field)), by(r.C(redemption.FieldID)))
	query, args := s.Query()
	if err := s.Err(); err != nil {
		return pageEnvelope{}, fmt.Errorf("building the page's statement: %w", err)
	}
	inner, _ := standIn.Query()
	before, after, ok := strings.Cut(query, "("+inner+")")
	if !ok || len(args) > 0 || strings.Contains(after, pageRowsStandIn) {
		return pageEnvelope{}, fmt.Errorf("building the page's statement: no single place for its rows in %q", query)
	}
	return pageEnvelope{before: before + "(", after: ")" + after}, nil
}

// restRowColumns returns the select list of restPage's rows' sub-select
// in dialect (restPageColumns, and field when the page is ordered by
// another column), quoted once per dialect and order.
func restRowColumns(dialect, field string) sql.Querier {
	key := pageEnvelopeKey{dialect: dialect, field: field}
	if q, ok := rowColumns.Load(key); ok {
		return q.(sql.Querier)
	}
	columns := restPageColumns
	if !slices.Contains(columns, field) { // the outer statement orders by it too (voucher_code)
		columns = append(slices.Clip(columns), field)
	}
	q := sql.Raw(strings.Join(sql.Dialect(dialect).Table(redemption.Table).Columns(columns...), ", "))
	rowColumns.Store(key, q)
	return q
}

// rowColumns holds restRowColumns' lists.
var rowColumns sync.Map // pageEnvelopeKey (desc false) → sql.Querier

// statement is the envelope around the rows' sub-select text.
func (e pageEnvelope) statement(rows string) string {
	var sb strings.Builder
	sb.Grow(len(e.before) + len(rows) + len(e.after))
	sb.WriteString(e.before)
	sb.WriteString(rows)
	sb.WriteString(e.after)
	return sb.String()
}

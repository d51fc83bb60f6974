package export

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/cardtransaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// exportTx is one row of a transactions export, whatever it was read
// from: a voucher's transactions (gift credits) or a loyalty card's
// (points).
type exportTx struct {
	ID, Type              string
	SourceID, Reason      stdsql.NullString
	Balance, Amount       int64
	CreatedAt             time.Time
	OwnerID               string // the voucher's or card's ID (the voucher_id column)
	CampaignID, RelatedID stdsql.NullString
	Details               []byte // JSON as stored
	Source                string
}

// cardDetails is the details column of a card transaction's row.
var cardDetails = []byte("{}")

// exportPage is a keyset page of an export's rows, or the error that
// ended the reading. last marks the final page.
type exportPage struct {
	rows []exportTx
	last bool
	err  error
}

// exportSource reads an owner's transactions in keyset pages of
// (created_at, id) with plain SQL: the export knows its columns, so rows
// are scanned straight into exportTx (no entities, no JSON decoding of
// columns it only copies). The reads are scoped to the job's project like
// every ent query.
type exportSource struct {
	c         *ent.Client
	dialect   string
	projectID string
	ownerID   string
	card      bool // a loyalty card's points transactions
	program   bool // all the transactions of a campaign (ownerID camp_…)
	programID string
	desc      bool
	// where are the export's created_at conditions.
	where []func(*entsql.Selector)
}

// columns are the table and owner column read and the columns read, in
// exportTx's scan order. The owner's ID is the same on every row and is
// not read; card transactions have no campaign, details, related
// transaction or source column (page fills them in).
func (s *exportSource) columns() (table, owner string, cols []string) {
	if s.card {
		return cardtransaction.Table, cardtransaction.FieldCardID, []string{cardtransaction.FieldID,
			cardtransaction.FieldType, cardtransaction.FieldSourceID, cardtransaction.FieldReason,
			cardtransaction.FieldBalance, cardtransaction.FieldAmount, cardtransaction.FieldCreatedAt}
	}
	cols = []string{vouchertransaction.FieldID,
		vouchertransaction.FieldType, vouchertransaction.FieldSourceID, vouchertransaction.FieldReason,
		vouchertransaction.FieldBalance, vouchertransaction.FieldAmount, vouchertransaction.FieldCreatedAt,
		vouchertransaction.FieldCampaignID, vouchertransaction.FieldDetails,
		vouchertransaction.FieldRelatedTransactionID, vouchertransaction.FieldSource}
	if s.program {
		// A campaign's rows belong to many vouchers: read each one's.
		return vouchertransaction.Table, vouchertransaction.FieldCampaignID, append(cols, vouchertransaction.FieldVoucherID)
	}
	return vouchertransaction.Table, vouchertransaction.FieldVoucherID, cols
}

// page reads up to limit rows after (at, id) when more is true, else from
// the start.
func (s *exportSource) page(ctx context.Context, more bool, at time.Time, id string, limit int) ([]exportTx, error) {
	table, owner, cols := s.columns()
	q := entsql.Dialect(s.dialect).Select(cols...).From(entsql.Table(table)).
		Where(entsql.And(entsql.EQ("project_id", s.projectID), entsql.EQ(owner, s.ownerID)))
	// A row comparison on (created_at, id) bounds the (owner, created_at,
	// id) index scan (an OR of the two cases would not).
	order := []string{entsql.Asc("created_at"), entsql.Asc("id")}
	if s.desc {
		order = []string{entsql.Desc("created_at"), entsql.Desc("id")}
	}
	for _, p := range s.where {
		p(q)
	}
	if more {
		if s.desc {
			q.Where(entsql.CompositeLT([]string{"created_at", "id"}, at, id))
		} else {
			q.Where(entsql.CompositeGT([]string{"created_at", "id"}, at, id))
		}
	}
	query, args := q.OrderBy(order...).Limit(limit).Query()
	rows, err := s.c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	t := exportTx{OwnerID: s.ownerID}
	dest := []any{&t.ID, &t.Type, &t.SourceID, &t.Reason, &t.Balance, &t.Amount, &t.CreatedAt}
	if s.card {
		t.CampaignID = stdsql.NullString{String: s.programID, Valid: true}
		t.Details, t.Source = cardDetails, "API"
	} else {
		dest = append(dest, &t.CampaignID, &t.Details, &t.RelatedID, &t.Source)
		if s.program {
			dest = append(dest, &t.OwnerID)
		}
	}
	out := make([]exportTx, 0, limit)
	for rows.Next() {
		// Every scanned field is overwritten (a []byte is copied), so the
		// rows own their values; the others are the same on every row.
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// read sends the rows after the position (more, at, id) on out, a page of
// pageSize at a time, then closes out. The reading of a page overlaps the
// writing of the one before (out holds one page). It stops at the first
// error, sent as the last page, or when ctx ends.
func (s *exportSource) read(ctx context.Context, more bool, at time.Time, id string, pageSize int, out chan<- exportPage) {
	defer close(out)
	for {
		rows, err := s.page(ctx, more, at, id, pageSize)
		p := exportPage{rows: rows, last: err != nil || len(rows) < pageSize, err: err}
		select {
		case out <- p:
		case <-ctx.Done():
			return
		}
		if p.last {
			return
		}
		more, at, id = true, rows[len(rows)-1].CreatedAt, rows[len(rows)-1].ID
	}
}

// newExportSource is the source of an export of ownerID's transactions: a
// voucher's, or a loyalty card's (IDs with the card prefix).
func newExportSource(ctx context.Context, c *ent.Client, projectID, ownerID string, card, desc bool) (*exportSource, error) {
	s := &exportSource{c: c, dialect: entdb.DialectFromContext(ctx), projectID: projectID, ownerID: ownerID, card: card, desc: desc,
		program: strings.HasPrefix(ownerID, pulid.PrefixCampaign)}
	if s.dialect == "" {
		return nil, fmt.Errorf("reading transactions: no SQL dialect in context")
	}
	if card {
		crd, err := c.Card.Get(ctx, ownerID)
		if err != nil {
			return nil, fmt.Errorf("reading card: %w", err)
		}
		s.programID = crd.ProgramID
	}
	return s, nil
}

// exportSubject resolves the path of an export: a voucher by code or ID,
// else a loyalty card by code or ID (its points transactions). It returns
// the owner's ID and the code the response's filter names.
func exportSubject(ctx context.Context, codeOrID string) (id, code string, err error) {
	v, err := campaign.VoucherByCodeOrID(ctx, codeOrID)
	if err == nil {
		return v.ID, v.Code, nil
	}
	if e, ok := apperr.As(err); !ok || e.Code != 404 {
		return "", "", err
	}
	c, cerr := store.Client(ctx)
	if cerr != nil {
		return "", "", cerr
	}
	crd, cerr := c.Card.Query().Where(card.Or(card.Code(codeOrID), card.ID(codeOrID))).First(ctx)
	if ent.IsNotFound(cerr) {
		return "", "", err // the voucher's 404
	}
	if cerr != nil {
		return "", "", fmt.Errorf("looking up card: %w", cerr)
	}
	code = crd.ID
	if crd.Code != nil {
		code = *crd.Code
	}
	return crd.ID, code, nil
}

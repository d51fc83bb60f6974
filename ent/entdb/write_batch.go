package entdb

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
)

// A write batch sends the writes of one use case to PostgreSQL as a single
// statement: a data-modifying CTE, one sub-statement per write. Outside a
// transaction that is one network round trip and one implicit transaction
// instead of BEGIN, one round trip per write, and COMMIT.
//
// The use case runs its ordinary ent code against the batch client of its
// database (BatchClient) with a context from WithWriteBatch: the client's
// driver records every INSERT and UPDATE instead of running it, and answers
// as if each had succeeded (an INSERT … RETURNING returns no rows, so ent
// keeps the IDs the use case set; an UPDATE reports one row). Run then
// sends them together, and keeps those answers honest: the statement fails
// unless every UPDATE found at least one row, so an UPDATE whose WHERE
// clause carries a guard (a row version read earlier) makes the whole
// batch conditional — it writes everything or nothing, and Run reports
// ErrBatchConflict for nothing. Anything the batch cannot answer without
// the database — a read, a DELETE (whose count callers use), a transaction,
// a statement with a string literal — is refused with ErrNotBatchable
// before anything is sent, and the caller takes its general path.
//
// Without a batch in the context the batch client is an ordinary client of
// the database, so entities it returned can still load their edges.

// ErrNotBatchable: the use case ran something a write batch cannot hold.
var ErrNotBatchable = errors.New("entdb: statement cannot join a write batch")

// ErrBatchConflict: a guarded UPDATE of the batch found no row, so the
// batch wrote nothing.
var ErrBatchConflict = errors.New("entdb: write batch conflict: a guarded row changed")

// WriteBatch collects the writes of one use case (see WithWriteBatch).
type WriteBatch struct {
	stmts []batchedStatement
	// refused is the first statement the batch could not hold.
	refused error
	// claims are the rows the batch writes, as its caller named them
	// (Claim): batches claiming a common row never share a statement.
	claims []string
}

// Claim names rows the batch writes (for example a voucher ID), so that
// batches combined into one statement never write the same row twice:
// PostgreSQL applies only one of two updates of a row in one statement.
func (b *WriteBatch) Claim(keys ...string) { b.claims = append(b.claims, keys...) }

// Claims are the rows named by Claim.
func (b *WriteBatch) Claims() []string { return b.claims }

// BatchedWrite is one write a batch recorded (Writes): an INSERT or UPDATE
// with its arguments, or the rows recorded with one RowsUpdate form.
type BatchedWrite struct {
	Query  string
	Args   []any
	Update bool
	// Form is set for rows recorded with UpdateRows: Common are their
	// shared arguments, Rows each row's.
	Form   *RowsUpdate
	Common []any
	Rows   [][]any
}

// Writes are the writes recorded, in order (for callers that send several
// batches as one statement of their own).
func (b *WriteBatch) Writes() []BatchedWrite {
	out := make([]BatchedWrite, len(b.stmts))
	for i, st := range b.stmts {
		out[i] = BatchedWrite{Query: st.query, Args: st.args, Update: st.update}
		if r := st.rows; r != nil {
			out[i].Form, out[i].Common, out[i].Rows = r.form, r.common, r.rows
		}
	}
	return out
}

type batchedStatement struct {
	query  string
	args   []any
	update bool
	// rows: a multi-row UPDATE (UpdateRows) whose text and arguments are
	// made when the statement is built.
	rows *rowsUpdate
}

// RowsUpdate is an UPDATE of several rows the batch sends as one
// statement (UpdateRows): Text(n) is its text for n rows, whose
// arguments are the common ones (the same for every row, $1…), then each
// row's in turn.
type RowsUpdate struct {
	Text func(n int) string
	// texts caches Text per row count.
	texts sync.Map // int → string
}

func (u *RowsUpdate) text(n int) string {
	if q, ok := u.texts.Load(n); ok {
		return q.(string)
	}
	q := u.Text(n)
	u.texts.Store(n, q)
	return q
}

// rowsUpdate is a RowsUpdate recorded in a batch.
type rowsUpdate struct {
	form   *RowsUpdate
	common []any
	rows   [][]any
}

type writeBatchKey struct{}

// WithWriteBatch returns a context in which the batch client records writes
// into a new batch, and that batch.
func WithWriteBatch(ctx context.Context) (context.Context, *WriteBatch) {
	b := &WriteBatch{}
	return context.WithValue(ctx, writeBatchKey{}, b), b
}

func batchFrom(ctx context.Context) *WriteBatch {
	b, _ := ctx.Value(writeBatchKey{}).(*WriteBatch)
	return b
}

// BatchFrom is the write batch ctx records into (nil: none).
func BatchFrom(ctx context.Context) *WriteBatch { return batchFrom(ctx) }

// Insert records an INSERT written by hand (no ent builder): fixed text
// with $1… placeholders and no string literal, so the statement the batch
// sends has the same text for the same writes and stays prepared.
func (b *WriteBatch) Insert(query string, args ...any) error {
	if !strings.HasPrefix(query, "INSERT ") {
		return b.refuse(query)
	}
	return b.add(query, args, false)
}

// Update records an UPDATE written by hand, like Insert; as every UPDATE
// of the batch it must find a row, or the batch writes nothing.
func (b *WriteBatch) Update(query string, args ...any) error {
	if !strings.HasPrefix(query, "UPDATE ") {
		return b.refuse(query)
	}
	return b.add(query, args, true)
}

// UpdateRows records the update of one row by form, written by hand as
// Insert's statements are: every row a batch records with the same form
// goes out in one UPDATE, at the place of the first, its rows in the order
// recorded; common are the arguments all of them share (those of the
// first row are kept). Like every UPDATE of the batch it is a guard: the
// batch writes nothing unless that UPDATE finds exactly one row per row
// recorded.
func (b *WriteBatch) UpdateRows(form *RowsUpdate, common []any, row ...any) error {
	for i := range b.stmts {
		if r := b.stmts[i].rows; r != nil && r.form == form {
			r.rows = append(r.rows, row)
			return nil
		}
	}
	b.stmts = append(b.stmts, batchedStatement{update: true, rows: &rowsUpdate{form: form, common: common, rows: [][]any{row}}})
	return nil
}

// batchClients maps each PostgreSQL client Open made to its batch client.
var batchClients sync.Map // *ent.Client → *ent.Client

// BatchClient is the batch client of c (nil when c is not a PostgreSQL
// client made by Open).
func BatchClient(c *ent.Client) *ent.Client {
	b, _ := batchClients.Load(c)
	bc, _ := b.(*ent.Client)
	return bc
}

// batchDriver is the batch client's driver: it records writes when the
// context carries a batch and passes everything to the database otherwise.
type batchDriver struct{ base textArgs }

func (d batchDriver) Exec(ctx context.Context, query string, args, v any) error {
	b := batchFrom(ctx)
	if b == nil {
		return d.base.Exec(ctx, query, args, v)
	}
	update := strings.HasPrefix(query, "UPDATE ")
	if !update && !strings.HasPrefix(query, "INSERT ") {
		return b.refuse(query)
	}
	if err := b.add(query, args, update); err != nil {
		return err
	}
	if res, ok := v.(*stdsql.Result); ok {
		*res = batchedResult{}
	}
	return nil
}

func (d batchDriver) Query(ctx context.Context, query string, args, v any) error {
	b := batchFrom(ctx)
	if b == nil {
		return d.base.Query(ctx, query, args, v)
	}
	rows, ok := v.(*entsql.Rows)
	if !ok || !strings.HasPrefix(query, "INSERT ") || !strings.Contains(query, " RETURNING ") {
		return b.refuse(query)
	}
	if err := b.add(query, args, false); err != nil {
		return err
	}
	*rows = entsql.Rows{ColumnScanner: noRows{}}
	return nil
}

func (d batchDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	if b := batchFrom(ctx); b != nil {
		return nil, b.refuse("BEGIN")
	}
	return d.base.Tx(ctx)
}

func (d batchDriver) Close() error    { return nil } // the database's own client closes the pool
func (d batchDriver) Dialect() string { return d.base.Dialect() }

func (b *WriteBatch) refuse(query string) error {
	if b.refused == nil {
		verb, _, _ := strings.Cut(query, " ")
		b.refused = fmt.Errorf("%w: %s", ErrNotBatchable, verb)
	}
	return b.refused
}

func (b *WriteBatch) add(query string, args any, update bool) error {
	list, ok := args.([]any)
	if args != nil && !ok {
		return b.refuse(query)
	}
	// Placeholders are renumbered by text: a string literal could hide one.
	if strings.Contains(query, "'") {
		return b.refuse(query)
	}
	b.stmts = append(b.stmts, batchedStatement{query: query, args: list, update: update})
	return nil
}

// Len is the number of writes recorded.
func (b *WriteBatch) Len() int { return len(b.stmts) }

// Err is the first refusal (nil: every statement joined the batch).
func (b *WriteBatch) Err() error { return b.refused }

// Statement is the single statement of the batch and its arguments.
func (b *WriteBatch) Statement() (string, []any) {
	stmts := b.stmts
	for i, st := range stmts {
		if st.rows == nil {
			continue
		}
		if &stmts[0] == &b.stmts[0] { // copy before the first change
			stmts = append([]batchedStatement(nil), b.stmts...)
		}
		r := st.rows
		args := append([]any(nil), r.common...)
		for _, row := range r.rows {
			args = append(args, row...)
		}
		stmts[i].query, stmts[i].args = r.form.text(len(r.rows)), args
	}
	n, size := 0, 0
	for _, s := range stmts {
		n += len(s.args)
		size += len(s.query) + 5
	}
	args := make([]any, 0, n)
	for _, s := range stmts {
		args = append(args, s.args...)
	}
	// The text depends only on the statements' texts, kinds, argument
	// counts and rows updated: the same writes make the same text, built
	// once.
	key := make([]byte, 0, size)
	for _, s := range stmts {
		kind, rows := byte(0), 0
		if s.update {
			kind = 1
		}
		if s.rows != nil {
			rows = len(s.rows.rows)
		}
		key = append(key, s.query...)
		key = append(key, kind, byte(len(s.args)), byte(len(s.args)>>8), byte(rows), byte(rows>>8))
	}
	if q, ok := statementTexts.Load(string(key)); ok { // no copy of key for the look-up
		return q.(string), args
	}
	q := statementText(stmts)
	if statementTextCount.Load() < maxStatementTexts {
		if _, loaded := statementTexts.LoadOrStore(string(key), q); !loaded {
			statementTextCount.Add(1)
		}
	}
	return q, args
}

// statementTexts caches the batch statements' texts (see Statement): the
// one-statement redemption sends a handful of shapes, each once built and
// then only looked up, instead of renumbering every sub-statement's
// placeholders per request. At most maxStatementTexts are kept (shapes
// built from ent's builders vary with the columns set).
var (
	statementTexts     sync.Map // key → text
	statementTextCount atomic.Int64
)

const maxStatementTexts = 1024

// statementText builds the text of a batch of stmts.
func statementText(stmts []batchedStatement) string {
	var sb strings.Builder
	var updates []string
	offset := 0
	sb.WriteString("WITH ")
	for i, s := range stmts {
		name := "w" + strconv.Itoa(i)
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(name + " AS (")
		sb.WriteString(renumber(s.query, offset))
		switch {
		case s.rows != nil && len(s.rows.rows) > 1:
			sb.WriteString(" RETURNING 1")
			updates = append(updates, "(SELECT (count(*) = "+strconv.Itoa(len(s.rows.rows))+")::int FROM "+name+")")
		case s.update:
			sb.WriteString(" RETURNING 1")
			updates = append(updates, "(SELECT count(*) FROM "+name+")")
		}
		sb.WriteString(")")
		offset += len(s.args)
	}
	// A guarded UPDATE that found nothing (or, of several rows, not all)
	// divides by zero: the statement, and every write in it, fails.
	sb.WriteString(" SELECT 1")
	for _, u := range updates {
		sb.WriteString(" / " + u)
	}
	return sb.String()
}

// Run sends the batch as one statement with the database's client c (not
// in a transaction). It fails with ErrNotBatchable when a statement was
// refused (nothing is sent) and with ErrBatchConflict when a guarded
// UPDATE found no row (nothing is written).
func (b *WriteBatch) Run(ctx context.Context, c *ent.Client) error {
	if b.refused != nil {
		return b.refused
	}
	if len(b.stmts) == 0 {
		return nil
	}
	query, args := b.Statement()
	_, err := c.ExecContext(ctx, query, args...) // its one row is not needed
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		switch pqErr.Code {
		case "22012": // division_by_zero: a guarded UPDATE found no row
			return ErrBatchConflict
		case "40P01", "40001": // deadlock or serialization failure: nothing was written either
			return ErrBatchConflict
		}
	}
	if err != nil {
		return fmt.Errorf("running write batch: %w", err)
	}
	return nil
}

// renumber shifts every $n placeholder of query by offset.
func renumber(query string, offset int) string {
	if offset == 0 {
		return query
	}
	var sb strings.Builder
	sb.Grow(len(query) + len(query)/8)
	for i := 0; i < len(query); i++ {
		ch := query[i]
		if ch != '$' {
			sb.WriteByte(ch)
			continue
		}
		j := i + 1
		for j < len(query) && query[j] >= '0' && query[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(query[i+1 : j])
		if err != nil {
			sb.WriteByte(ch)
			continue
		}
		sb.WriteString("$" + strconv.Itoa(n+offset))
		i = j - 1
	}
	return sb.String()
}

// batchedResult answers a recorded write: one row, no generated ID.
type batchedResult struct{}

func (batchedResult) LastInsertId() (int64, error) { return 0, ErrNotBatchable }
func (batchedResult) RowsAffected() (int64, error) { return 1, nil }

// noRows answers a recorded INSERT … RETURNING.
type noRows struct{}

func (noRows) Close() error                               { return nil }
func (noRows) ColumnTypes() ([]*stdsql.ColumnType, error) { return nil, nil }
func (noRows) Columns() ([]string, error)                 { return nil, nil }
func (noRows) Err() error                                 { return nil }
func (noRows) Next() bool                                 { return false }
func (noRows) NextResultSet() bool                        { return false }
func (noRows) Scan(...any) error                          { return stdsql.ErrNoRows }

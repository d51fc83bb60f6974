package redemption

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
)

// combinedMember is one member's writes, read back from its batch.
type combinedMember struct {
	// vouchers are the rows of redeemedVouchers: ID, version, gift, card,
	// points; now and project its common arguments.
	vouchers     [][]any
	now, project any
	inserts      []combinedInsert
	updates      []entdb.BatchedWrite
}

// combinedInsert is an INSERT of rows into table's columns.
type combinedInsert struct {
	form *insertForm
	rows [][]any
}

// insertForm is the table and columns of a hand-written INSERT.
type insertForm struct {
	table   string
	columns []string
}

// insertForms caches parseInsert by the INSERT's text up to VALUES.
var insertForms sync.Map // string → *insertForm

// readMember reads b's writes as a member of a combined statement; false
// when one of them has a form the combined statement cannot hold (the
// batch then runs alone).
func readMember(b *entdb.WriteBatch) (*combinedMember, bool) {
	if b.Err() != nil {
		return nil, false
	}
	m := &combinedMember{}
	for _, w := range b.Writes() {
		switch {
		case w.Form == redeemedVouchers:
			if m.vouchers != nil || len(w.Common) != 2 {
				return nil, false
			}
			m.vouchers, m.now, m.project = w.Rows, w.Common[0], w.Common[1]
		case w.Form != nil:
			return nil, false
		case w.Update:
			// A guarded UPDATE of one row by its WHERE clause (the
			// customer's): the combined statement appends its member's
			// condition.
			q := w.Query
			if !strings.HasPrefix(q, "UPDATE ") || !strings.Contains(q, " WHERE ") ||
				strings.Contains(q, " RETURNING ") || strings.Contains(q, " FROM ") || strings.Contains(q, " OR ") {
				return nil, false
			}
			m.updates = append(m.updates, w)
		default:
			f, ok := parseInsert(w.Query, len(w.Args))
			if !ok {
				return nil, false
			}
			for _, a := range w.Args {
				if !arrayable(a) {
					return nil, false
				}
			}
			n := len(f.columns)
			ins := combinedInsert{form: f}
			for i := 0; i < len(w.Args); i += n {
				ins.rows = append(ins.rows, w.Args[i:i+n])
			}
			m.inserts = append(m.inserts, ins)
		}
	}
	return m, m.vouchers != nil
}

// parsedInserts caches parseInsert's answer by the whole text and the
// number of arguments: the batch's INSERTs are a few fixed texts
// (batched_rows.go), so each is taken apart once per process, not once
// per member of every combined statement.
var parsedInserts sync.Map // parsedInsertKey → *insertForm (nil: not of the form)

// parsedInsertKey is an INSERT's text and its number of arguments.
type parsedInsertKey struct {
	q    string
	args int
}

// parsedInsertsMax bounds parsedInserts (texts of other forms are not
// cached beyond it; they are parsed each time, as before).
const parsedInsertsMax = 256

var parsedInsertsLen atomic.Int64

// parseInsert reads `INSERT INTO "t" ("a", "b") VALUES ($1, $2), ($3, $4)`
// (optionally followed by RETURNING, whose answer the batch never gave)
// with args arguments; false for any other form.
func parseInsert(q string, args int) (*insertForm, bool) {
	key := parsedInsertKey{q, args}
	if f, ok := parsedInserts.Load(key); ok {
		return f.(*insertForm), f.(*insertForm) != nil
	}
	f, ok := parseInsertText(q, args)
	if parsedInsertsLen.Load() < parsedInsertsMax {
		if _, loaded := parsedInserts.LoadOrStore(key, f); !loaded {
			parsedInsertsLen.Add(1)
		}
	}
	return f, ok
}

// parseInsertText is parseInsert without the cache.
func parseInsertText(q string, args int) (*insertForm, bool) {
	head, values, ok := strings.Cut(q, ") VALUES (")
	if !ok {
		return nil, false
	}
	var f *insertForm
	if cached, ok := insertForms.Load(head); ok {
		f = cached.(*insertForm)
	} else {
		rest, ok := strings.CutPrefix(head, `INSERT INTO "`)
		if !ok {
			return nil, false
		}
		table, cols, ok := strings.Cut(rest, `" (`)
		if !ok || strings.ContainsAny(table, `" `) {
			return nil, false
		}
		f = &insertForm{table: table}
		for _, c := range strings.Split(cols, ", ") {
			name, ok := strings.CutPrefix(c, `"`)
			if name, ok2 := strings.CutSuffix(name, `"`); ok && ok2 && name != "" && !strings.ContainsAny(name, `" `) {
				f.columns = append(f.columns, name)
				continue
			}
			return nil, false
		}
		insertForms.Store(head, f)
	}
	n := len(f.columns)
	if n == 0 || args == 0 || args%n != 0 {
		return nil, false
	}
	// The VALUES must be the args in order, n to a row.
	var sb strings.Builder
	sb.WriteString("(")
	for i := 1; i <= args; i++ {
		switch {
		case i == 1:
		case (i-1)%n == 0:
			sb.WriteString("), (")
		default:
			sb.WriteString(", ")
		}
		sb.WriteString("$" + strconv.Itoa(i))
	}
	sb.WriteString(")")
	tail, ok := strings.CutPrefix("("+values, sb.String())
	if !ok || (tail != "" && !strings.HasPrefix(tail, " RETURNING ")) {
		return nil, false
	}
	return f, true
}

// columnTypes caches each table's column types (format_type), read once
// per process: the combined INSERTs select their rows from unnest(arrays), whose
// placeholders need the column's type.
var columnTypes sync.Map // table → map[string]string

// typesOf reads the column types of table.
func typesOf(ctx context.Context, c *ent.Client, table string) (map[string]string, error) {
	if t, ok := columnTypes.Load(table); ok {
		return t.(map[string]string), nil
	}
	rows, err := c.QueryContext(ctx, `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute `+
		`WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the columns of %s: %w", table, err)
	}
	defer rows.Close()
	types := map[string]string{}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, fmt.Errorf("reading the columns of %s: %w", table, err)
		}
		types[name] = typ
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the columns of %s: %w", table, err)
	}
	columnTypes.Store(table, types)
	return types, nil
}

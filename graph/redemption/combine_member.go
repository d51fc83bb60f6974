package redemption

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

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

// parseInsert reads `INSERT INTO "t" ("a", "b") VALUES ($1, $2), ($3, $4)`
// (optionally followed by RETURNING, whose answer the batch never gave)
// with args arguments; false for any other form.
func parseInsert(q string, args int) (*insertForm, bool) {
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

// errNoArrayForm: a value of a member's rows has no array form here.
var errNoArrayForm = errors.New("combining redemptions: a value with no array form")

// arrayLiteral is the PostgreSQL array literal of values (text forms as
// lib/pq sends them as arguments); false for a type it does not know.
func arrayLiteral(values []any) (string, bool) {
	var sb strings.Builder
	sb.Grow(literalSize(values))
	sb.WriteByte('{')
	for i, v := range values {
		if i > 0 {
			sb.WriteByte(',')
		}
		if !writeElement(&sb, v) {
			return "", false
		}
	}
	sb.WriteByte('}')
	return sb.String(), true
}

// arrayable reports whether writeElement knows v's type.
func arrayable(v any) bool {
	switch v.(type) {
	case nil, string, []byte, json.RawMessage, time.Time, int, int64, int32, float64, bool,
		*string, *int, *int64, *float64, *bool, *time.Time:
		return true
	}
	switch reflect.ValueOf(v).Kind() { // named types: ent's enums
	case reflect.String, reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Bool:
		return true
	}
	return false
}

// literalSize estimates the length of values' array literal: the text of
// its strings and documents and a few bytes for every other element.
func literalSize(values []any) int {
	n := 2
	for _, v := range values {
		switch x := v.(type) {
		case string:
			n += len(x) + 3
		case []byte:
			n += len(x) + 3
		case json.RawMessage:
			n += len(x) + 3
		case *string:
			if x != nil {
				n += len(*x) + 3
			}
		default:
			n += 24
		}
	}
	return n + n/8 // the documents' quotes are escaped
}

// quoteElement writes s as a quoted element of an array literal: a
// backslash before each double quote and backslash, the rest copied in
// runs (a JSON document is mostly runs between quotes).
func quoteElement(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			sb.WriteString(s[start:i])
			sb.WriteByte('\\')
			start = i
		}
	}
	sb.WriteString(s[start:])
	sb.WriteByte('"')
}

// bytesText is b as a string without a copy, for writing it: b must not
// change while the string is in use.
func bytesText(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// writeElement writes v as an element of an array literal.
func writeElement(sb *strings.Builder, v any) bool {
	quoted := func(s string) { quoteElement(sb, s) }
	switch x := v.(type) {
	case nil:
		sb.WriteString("NULL")
	case string:
		quoted(x)
	case []byte:
		if x == nil {
			sb.WriteString("NULL")
		} else {
			quoteElement(sb, bytesText(x))
		}
	case json.RawMessage:
		if x == nil {
			sb.WriteString("NULL")
		} else {
			quoteElement(sb, bytesText(x))
		}
	case time.Time:
		var buf [40]byte
		quoteElement(sb, bytesText(x.AppendFormat(buf[:0], time.RFC3339Nano)))
	case int:
		sb.WriteString(strconv.Itoa(x))
	case int64:
		sb.WriteString(strconv.FormatInt(x, 10))
	case int32:
		sb.WriteString(strconv.FormatInt(int64(x), 10))
	case float64:
		sb.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case bool:
		if x {
			sb.WriteString("t")
		} else {
			sb.WriteString("f")
		}
	case *string:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *int:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *int64:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *float64:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *bool:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	case *time.Time:
		return x == nil && writeElement(sb, nil) || x != nil && writeElement(sb, *x)
	default:
		switch r := reflect.ValueOf(v); r.Kind() { // named types: ent's enums
		case reflect.String:
			quoted(r.String())
		case reflect.Int, reflect.Int64, reflect.Int32:
			sb.WriteString(strconv.FormatInt(r.Int(), 10))
		case reflect.Float64:
			sb.WriteString(strconv.FormatFloat(r.Float(), 'g', -1, 64))
		case reflect.Bool:
			return writeElement(sb, r.Bool())
		default:
			return false
		}
	}
	return true
}

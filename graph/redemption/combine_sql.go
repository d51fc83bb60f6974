package redemption

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
)

// The combined statement (combine.go) writes the batches of several
// one-statement redemptions ("members") at once, each member's rows only
// if its own guards held:
//
//	WITH v AS (UPDATE vouchers … FROM unnest(ids, versions, gifts, cards,
//	           points, times, projects, members) r … WHERE id = r.id AND
//	           xmin = r.version … RETURNING r.m),
//	     need AS (unnest(members, vouchers of each)),
//	     vok AS (members whose every voucher was updated),
//	     u0 AS (a member's guarded customer UPDATE … AND m IN vok
//	            RETURNING m),
//	     i0 AS (INSERT INTO orders (…) SELECT … FROM unnest(one array per
//	            column, members) r WHERE r.m IN vok), …
//	SELECT members written, 1 / (no member written in part)
//
// Every member's vouchers are one UPDATE (rows in voucher ID order, the
// transactional path's lock order), each row guarded by the version its
// member read: a member whose voucher changed meanwhile finds none of
// its vouchers (vok leaves it out) and every other row of it — the
// order, the redemptions, its customer's INSERT or UPDATE — is left out
// with it. The rows of one table go out as one INSERT whatever the
// number of members (one executor node, its indexes opened once). A
// member written in part — some but not all of its vouchers, or its
// vouchers but not its customer's guarded UPDATE — cannot be undone
// within the statement: the division by zero then fails the statement,
// which writes nothing, and every member runs alone (combine.go).

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

// combinedStatement is the statement writing members (see above) and its
// arguments; each member's index in members is its m. Rows are bound as
// one array per column (unnest), so the text depends only on the tables
// written and the members' guarded UPDATEs, not on the number of rows:
// it stays prepared per connection. A value without an array form here
// fails it with errNoArrayForm (nothing is sent; the members run alone).
func combinedStatement(ctx context.Context, c *ent.Client, members []*combinedMember) (string, []any, error) {
	var sb strings.Builder
	var args []any
	arg := func(v any, typ string) {
		args = append(args, v)
		sb.WriteString("$" + strconv.Itoa(len(args)))
		if typ != "" {
			sb.WriteString("::" + typ)
		}
	}
	// arrays binds columns (each a slice of values) as arrays of types.
	arrays := func(columns [][]any, types []string) error {
		for k, col := range columns {
			lit, ok := arrayLiteral(col)
			if !ok {
				return errNoArrayForm
			}
			if k > 0 {
				sb.WriteString(", ")
			}
			arg(lit, types[k]+"[]")
		}
		return nil
	}
	// The vouchers, in ID order (the lock order of the transactional
	// path); IDs are distinct across members (combine.go).
	type vrow struct {
		m   int
		row []any
	}
	var vrows []vrow
	for i, m := range members {
		for _, r := range m.vouchers {
			if len(r) != 5 {
				return "", nil, fmt.Errorf("combining redemptions: a voucher row of %d values", len(r))
			}
			vrows = append(vrows, vrow{i, r})
		}
	}
	slices.SortStableFunc(vrows, func(a, b vrow) int { return strings.Compare(fmt.Sprint(a.row[0]), fmt.Sprint(b.row[0])) })
	vcols := make([][]any, 8)
	for _, r := range vrows {
		for k := 0; k < 5; k++ {
			vcols[k] = append(vcols[k], r.row[k])
		}
		vcols[5] = append(vcols[5], members[r.m].now)
		vcols[6] = append(vcols[6], members[r.m].project)
		vcols[7] = append(vcols[7], r.m)
	}
	sb.WriteString(`WITH v AS (UPDATE vouchers SET updated_at = r.at, redeemed_quantity = vouchers.redeemed_quantity + 1, ` +
		`gift = COALESCE(r.gift, vouchers.gift), loyalty_card = COALESCE(r.card, vouchers.loyalty_card), ` +
		`redeemed_points = vouchers.redeemed_points + r.points FROM unnest(`)
	if err := arrays(vcols, []string{"text", "xid", "jsonb", "jsonb", "bigint", "timestamptz", "text", "int"}); err != nil {
		return "", nil, err
	}
	sb.WriteString(`) AS r (id, version, gift, card, points, at, project, m) WHERE vouchers.id = r.id ` +
		`AND vouchers.xmin = r.version AND vouchers.project_id = r.project RETURNING r.m), need AS (SELECT * FROM unnest(`)
	need := make([][]any, 2)
	for i, m := range members {
		need[0], need[1] = append(need[0], i), append(need[1], len(m.vouchers))
	}
	if err := arrays(need, []string{"int", "int"}); err != nil {
		return "", nil, err
	}
	sb.WriteString(`) AS need (m, n)), vok AS (SELECT need.m FROM need JOIN (SELECT v.m, count(*) AS c FROM v GROUP BY v.m) g ` +
		`ON g.m = need.m AND g.c = need.n)`)

	// The guarded UPDATEs of each member (its customer), only when its
	// vouchers were written.
	var updated []int // member of each u<k>
	for i, m := range members {
		for _, u := range m.updates {
			k := len(updated)
			updated = append(updated, i)
			sb.WriteString(", u" + strconv.Itoa(k) + " AS (")
			sb.WriteString(renumberFrom(u.Query, len(args)))
			args = append(args, u.Args...)
			sb.WriteString(" AND ")
			arg(i, "int")
			sb.WriteString(" IN (SELECT m FROM vok) RETURNING ")
			arg(i, "int")
			sb.WriteString(" AS m)")
		}
	}

	// The INSERTs, one per table and columns, each row only when its
	// member's vouchers were written.
	type group struct {
		form *insertForm
		rows []vrow
	}
	var groups []*group
	for i, m := range members {
		for _, ins := range m.inserts {
			var g *group
			for _, x := range groups {
				if x.form == ins.form {
					g = x
				}
			}
			if g == nil {
				g = &group{form: ins.form}
				groups = append(groups, g)
			}
			for _, r := range ins.rows {
				g.rows = append(g.rows, vrow{i, r})
			}
		}
	}
	// The same tables in the same order whatever the members' order.
	slices.SortStableFunc(groups, func(a, b *group) int {
		return strings.Compare(a.form.table+"\x00"+strings.Join(a.form.columns, ","), b.form.table+"\x00"+strings.Join(b.form.columns, ","))
	})
	for k, g := range groups {
		types, err := typesOf(ctx, c, g.form.table)
		if err != nil {
			return "", nil, err
		}
		n := len(g.form.columns)
		colTypes := make([]string, n+1)
		for j, col := range g.form.columns {
			t, ok := types[col]
			if !ok {
				return "", nil, fmt.Errorf("combining redemptions: no column %s.%s", g.form.table, col)
			}
			colTypes[j] = t
		}
		colTypes[n] = "int"
		cols := make([][]any, n+1)
		for _, r := range g.rows {
			for j, v := range r.row {
				cols[j] = append(cols[j], v)
			}
			cols[n] = append(cols[n], r.m)
		}
		sb.WriteString(", i" + strconv.Itoa(k) + ` AS (INSERT INTO "` + g.form.table + `" ("` +
			strings.Join(g.form.columns, `", "`) + `") SELECT `)
		for j := 0; j < n; j++ {
			if j > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("r.c" + strconv.Itoa(j))
		}
		sb.WriteString(" FROM unnest(")
		if err := arrays(cols, colTypes); err != nil {
			return "", nil, err
		}
		sb.WriteString(") AS r (")
		for j := 0; j < n; j++ {
			sb.WriteString("c" + strconv.Itoa(j) + ", ")
		}
		sb.WriteString("m) WHERE r.m IN (SELECT m FROM vok))")
	}

	// Members written, and the division by zero when one was written in
	// part: some of its vouchers, or its vouchers without its customer.
	sb.WriteString(" SELECT (SELECT array_agg(m) FROM vok), 1 / (SELECT (count(*) = 0)::int FROM (" +
		"(SELECT m FROM v EXCEPT SELECT m FROM vok)")
	if len(updated) > 0 {
		sb.WriteString(" UNION ALL (SELECT cu.m FROM unnest(")
		cu := make([]any, len(updated))
		for k, i := range updated {
			cu[k] = i
		}
		if err := arrays([][]any{cu}, []string{"int"}); err != nil {
			return "", nil, err
		}
		sb.WriteString(") AS cu (m) WHERE cu.m IN (SELECT m FROM vok) AND cu.m NOT IN (")
		for k := range updated {
			if k > 0 {
				sb.WriteString(" UNION ALL ")
			}
			sb.WriteString("SELECT m FROM u" + strconv.Itoa(k))
		}
		sb.WriteString("))")
	}
	sb.WriteString(") AS bad)")
	return sb.String(), args, nil
}

// errNoArrayForm: a value of a member's rows has no array form here.
var errNoArrayForm = errors.New("combining redemptions: a value with no array form")

// arrayLiteral is the PostgreSQL array literal of values (text forms as
// lib/pq sends them as arguments); false for a type it does not know.
func arrayLiteral(values []any) (string, bool) {
	var sb strings.Builder
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

// writeElement writes v as an element of an array literal.
func writeElement(sb *strings.Builder, v any) bool {
	quoted := func(s string) {
		sb.WriteByte('"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				sb.WriteByte('\\')
			}
			sb.WriteByte(s[i])
		}
		sb.WriteByte('"')
	}
	switch x := v.(type) {
	case nil:
		sb.WriteString("NULL")
	case string:
		quoted(x)
	case []byte:
		if x == nil {
			sb.WriteString("NULL")
		} else {
			quoted(string(x))
		}
	case json.RawMessage:
		if x == nil {
			sb.WriteString("NULL")
		} else {
			quoted(string(x))
		}
	case time.Time:
		quoted(x.Format(time.RFC3339Nano))
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

// renumberFrom shifts the $n placeholders of q by offset.
func renumberFrom(q string, offset int) string {
	if offset == 0 {
		return q
	}
	var sb strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] != '$' {
			sb.WriteByte(q[i])
			continue
		}
		j := i + 1
		for j < len(q) && q[j] >= '0' && q[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(q[i+1 : j])
		if err != nil {
			sb.WriteByte(q[i])
			continue
		}
		sb.WriteString("$" + strconv.Itoa(n+offset))
		i = j - 1
	}
	return sb.String()
}

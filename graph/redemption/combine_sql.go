package redemption

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/ent"
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
	slices.SortStableFunc(vrows, func(a, b vrow) int { return strings.Compare(voucherKey(a.row[0]), voucherKey(b.row[0])) })
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

// voucherKey is a voucher row's ID as the sort compares it (a string, as
// redeemedVouchers binds it; anything else by its printed form).
func voucherKey(id any) string {
	if s, ok := id.(string); ok {
		return s
	}
	return fmt.Sprint(id)
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

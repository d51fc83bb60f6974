package export

import (
	"fmt"
	"slices"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/graph/apperr"
)

// An export's order (exports.json, Export*Order): created_at (the default,
// newest first) or another documented member, "-" for descending. Rows
// are read in keyset pages of (sort, id); a created_at order keeps its
// position in the committed chunks (created_at, id), another order
// resumes after the last committed row, whose sort value a subquery reads.

// keysetSort is an order other than created_at (the zero value).
type keysetSort struct {
	// table is the exported table.
	table string
	// expr is the sort expression over the columns c names (nil:
	// created_at): the same on the page and in the resume subquery.
	expr func(c func(string) string) string
}

// sortExpr is the expression of a sort member over columns.
type sortExpr func(c func(string) string) string

// sortColumn sorts by a non-null column.
func sortColumn(col string) sortExpr {
	return func(c func(string) string) string { return c(col) }
}

// sortText sorts by a nullable text column, no value first.
func sortText(col string) sortExpr {
	return func(c func(string) string) string { return "COALESCE(" + c(col) + ", '')" }
}

// sortUpdated sorts by updated_at, a row never updated at its creation.
func sortUpdated(c func(string) string) string {
	return "COALESCE(" + c("updated_at") + ", " + c("created_at") + ")"
}

// exportSort reads an export's order: orders maps each documented member
// other than created_at to its expression over table.
func exportSort(order any, table string, orders map[string]sortExpr) keysetSort {
	name := strings.TrimPrefix(fmt.Sprint(order), "-")
	if expr, ok := orders[name]; ok {
		return keysetSort{table: table, expr: expr}
	}
	return keysetSort{}
}

// checkOrder refuses an order that is not one of the documented members
// (created_at and those of orders), with or without "-".
func checkOrder(order string, orders map[string]sortExpr) error {
	names := []string{"created_at"}
	for k := range orders {
		names = append(names, k)
	}
	slices.Sort(names)
	if slices.Contains(names, strings.TrimPrefix(order, "-")) {
		return nil
	}
	documented := make([]string, 0, 2*len(names))
	for _, n := range names {
		documented = append(documented, "-"+n, n)
	}
	return apperr.InvalidPayload("Property .parameters.order must be one of %s, got %q", strings.Join(documented, ", "), order)
}

// exportDesc is whether an export's rows go in descending order: no order
// means -created_at.
func exportDesc(order any) bool {
	o, _ := order.(string)
	return o == "" || strings.HasPrefix(o, "-")
}

func direction(desc bool) entsql.OrderTermOption {
	if desc {
		return entsql.OrderDesc()
	}
	return entsql.OrderAsc()
}

// orderBy orders the page by the sort expression.
func (k keysetSort) orderBy(desc bool) func(*entsql.Selector) {
	return func(s *entsql.Selector) {
		dir := " ASC"
		if desc {
			dir = " DESC"
		}
		s.OrderExpr(entsql.Expr(k.expr(s.C) + dir))
	}
}

// after keeps the rows past the position: (created_at, id) past (at, id),
// or (sort, id) past the row id's.
func (k keysetSort) after(desc bool, at time.Time, id string) func(*entsql.Selector) {
	if k.expr == nil {
		return keysetAfter(desc, at, id)
	}
	return func(s *entsql.Selector) {
		sub := entsql.Dialect(s.Dialect()).Select().From(entsql.Table(k.table).As("keyset_last"))
		sub.SelectExpr(entsql.Expr(k.expr(sub.C))).Where(entsql.EQ(sub.C("id"), id))
		op := " > "
		if desc {
			op = " < "
		}
		s.Where(entsql.P(func(b *entsql.Builder) {
			b.WriteString("(" + k.expr(s.C) + ", " + s.C("id") + ")" + op + "((")
			b.Join(sub)
			b.WriteString("), ").Arg(id).WriteString(")")
		}))
	}
}

package redemption

import (
	"context"
	"slices"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/redemption"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
)

// TestRESTPageEnvelopeIsTheBuiltStatement: for each dialect and order of
// the list, the remembered text around a page's rows, with the rows'
// sub-select of remembered columns and of filters (arguments; with the
// list's filters[…] object) written into it, is the statement ent's
// builder makes of the same columns and filters, text and arguments.
func TestRESTPageEnvelopeIsTheBuiltStatement(t *testing.T) {
	cond := func(op string, v any) map[string]any { return map[string]any{"conditions": map[string]any{op: v}} }
	filtered, err := listfilter.BuildFields(map[string]any{"junction": "or", "customer_id": cond("$in", []any{"A", "B"}), "voucher_code": cond("$starts_with", "A"),
		"failure_code": cond("$is_not", "x"), "object": cond("$is", "redemption")}, listFilterFields(context.Background(), nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dialect.Postgres, dialect.SQLite} {
		for _, field := range redemptionOrders {
			for _, desc := range []bool{false, true} {
				rows := func(remembered bool) *sql.Selector {
					b := sql.Dialect(d)
					tbl := b.Table(redemption.Table)
					cols := restPageColumns
					if !slices.Contains(cols, field) {
						cols = append(slices.Clip(cols), field)
					}
					s := b.Select(tbl.Columns(cols...)...).From(tbl)
					if remembered {
						s = b.Select().From(tbl).SelectExpr(restRowColumns(d, field))
					}
					s.Where(sql.And(sql.EQ(tbl.C(redemption.FieldProjectID), "proj_1"),
						sql.In(tbl.C(redemption.FieldResult), "SUCCESS", "FAILURE"), sql.LT(tbl.C(redemption.FieldCreatedAt), time.Unix(1, 0))))
					filtered(s)
					return s.OrderBy(sql.Desc(tbl.C(field))).Limit(50)
				}
				b := sql.Dialect(d)
				r := rows(false).As("r")
				s := b.Select(r.Columns(restPageColumns...)...).From(r)
				customerpkg.JoinCustomers(s, r.C(redemption.FieldCustomerID), r.C(redemption.FieldProjectID), "r", restPageCustomerColumns)
				campaignpkg.JoinVouchers(s, r.C(redemption.FieldVoucherID), r.C(redemption.FieldProjectID), "r")
				by := sql.Asc
				if desc {
					by = sql.Desc
				}
				s.OrderBy(by(r.C(field)), by(r.C(redemption.FieldID)))
				want, wantArgs := s.Query()

				e, err := restPageEnvelope(d, field, desc)
				if err != nil {
					t.Fatal(err)
				}
				inner, args := rows(true).Query()
				if got := e.statement(inner); got != want || !slices.Equal(args, wantArgs) {
					t.Errorf("%s %s desc=%v: the envelope wrote\n%s %v\nthe builder\n%s %v", d, field, desc, got, args, want, wantArgs)
				}
			}
		}
	}
}

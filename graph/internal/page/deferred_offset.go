package page

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// DeferredOffset is a predicate that keeps the rows of one offset page of
// a v1 list: `id IN (SELECT id FROM table WHERE project_id = … AND where…
// ORDER BY order… LIMIT limit OFFSET offset)`. The rows the page skips are
// then read by the sub-select alone, which needs only the filter, order
// and id columns: an index-only scan when an index covers them (with the
// project as an INCLUDE column), instead of reading every skipped row from
// the table as `SELECT * … OFFSET n` does. Page 99 of 50 skips 4,900 rows:
// ~3× less PostgreSQL time per request (docs/architecture.md, "Lists at a
// million rows").
//
// The sub-select is built by hand, outside ent, so the tenancy interceptor
// does not reach it: its project filter is explicit, the viewer's in ctx
// (an error without one: tenancy fails closed). The query the predicate
// goes into keeps the same order (and a LIMIT of at least limit) but no
// offset.
func DeferredOffset[W, O ~func(*sql.Selector)](ctx context.Context, table string, where []W, order []O, offset, limit int) (func(*sql.Selector), error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("paging %s: no project in context", table)
	}
	projectID := v.ProjectID
	return func(s *sql.Selector) {
		t := sql.Table(table).As("page_rows")
		ids := sql.Dialect(s.Dialect()).Select(t.C("id")).From(t)
		ids.Where(sql.EQ(t.C("project_id"), projectID))
		for _, w := range where {
			w(ids)
		}
		for _, o := range order {
			o(ids)
		}
		ids.Offset(offset).Limit(limit)
		s.Where(sql.In(s.C("id"), ids))
	}, nil
}

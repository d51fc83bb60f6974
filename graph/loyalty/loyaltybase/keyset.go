package loyaltybase

import (
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Keyset pages of the v2 lists that are not GraphQL connections (tier
// structures, tiers, activities, reward purchases, tier transactions,
// program rewards): ordered by (created_at, id), a page starts after the
// row whose id the caller passes. Limit 1–100, default 10 (the REST
// lists' bounds, rest/loyaltyv2/lists.go).

// maxPage bounds every page.
const maxPage = 100

// Size returns the page size, refusing one outside 1–100.
func (p PageInput) Size() (int, error) {
	switch {
	case p.Limit == 0:
		return 10, nil
	case p.Limit < 1 || p.Limit > maxPage:
		return 0, apperr.InvalidQueryParams("Query parameter limit must be an integer from 1 to %d, got %d", maxPage, p.Limit)
	}
	return p.Limit, nil
}

// keyOrder orders rows by (created_at, id) in the page's direction.
func (p PageInput) keyOrder() []func(*sql.Selector) {
	if p.Asc {
		return []func(*sql.Selector){sql.OrderByField("created_at").ToFunc(), sql.OrderByField("id").ToFunc()}
	}
	return []func(*sql.Selector){sql.OrderByField("created_at", sql.OrderDesc()).ToFunc(),
		sql.OrderByField("id", sql.OrderDesc()).ToFunc()}
}

// after selects the rows that follow (at, id) in the page's direction.
// The redundant created_at bound in front is what PostgreSQL can start the
// index walk from (the OR alone is only a filter: a deep cursor read every
// row before it).
func (p PageInput) after(at time.Time, id string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		cmp, from := sql.LT, sql.LTE
		if p.Asc {
			cmp, from = sql.GT, sql.GTE
		}
		s.Where(sql.And(from(s.C("created_at"), at),
			sql.Or(cmp(s.C("created_at"), at), sql.And(sql.EQ(s.C("created_at"), at), cmp(s.C("id"), id)))))
	}
}

// Trim cuts a limit+1 read to the page and tells whether more follow.
func Trim[T any](rows []T, limit int) ([]T, bool) {
	if len(rows) > limit {
		return rows[:limit], true
	}
	return rows, false
}

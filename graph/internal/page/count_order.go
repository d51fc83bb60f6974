package page

import "entgo.io/ent/dialect/sql"

// CountInIndexOrder is a predicate for a capped count (ent's CountAtMost,
// which drops the query's order): it orders the counted rows by cols, the
// columns that follow the equality filter in the index a list pages off.
// Unordered, PostgreSQL plans a count whose filter matches a large share
// of the table as a sequential scan that stops at the cap, reading
// cap/share rows; ordered, it walks the index and reads the cap's entries
// (docs/architecture.md, "Lists at a million rows"). desc walks backward.
func CountInIndexOrder(desc bool, cols ...string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		for _, c := range cols {
			if desc {
				s.OrderBy(sql.Desc(s.C(c)))
			} else {
				s.OrderBy(s.C(c))
			}
		}
	}
}

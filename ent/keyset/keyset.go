// Package keyset builds the cursor conditions of the GraphQL connections
// that order by several fields (entgql's MultiOrder), in a shape the
// database can start an index walk at.
//
// entgql's MultiCursorsPredicate writes the condition "after (x1, y1,
// id1)" as x < x1 OR (x = x1 AND y > y1) OR (x = x1 AND y = y1 AND id >
// id1). PostgreSQL cannot use that OR as an index bound, so a deep page
// walks the index from its start and filters every row before the cursor
// away: O(offset), not O(page). The conditions built here select exactly
// the same rows and add what makes the walk start at the cursor:
//   - when every term runs in one direction, a row comparison (x, y, id) <
//     (x1, y1, id1), which is an index range on an index in that order;
//   - otherwise the same OR, with the leading term's bound x <= x1 beside
//     it (implied by every branch of the OR), which is an index range on
//     an index that leads with x.
package keyset

import (
	"fmt"
	"slices"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/dialect/sql"
)

// MultiCursorsPredicate is entgql.MultiCursorsPredicate with the
// conditions described in the package comment: one predicate per cursor
// given (after, before).
func MultiCursorsPredicate[T any](after, before *entgql.Cursor[T], opts *entgql.MultiCursorsOptions) ([]func(*sql.Selector), error) {
	var predicates []func(*sql.Selector)
	for _, cursor := range []*entgql.Cursor[T]{after, before} {
		if cursor == nil {
			continue
		}
		if cursor.Value == nil {
			if opts.DirectionID == entgql.OrderDirectionAsc {
				predicates = append(predicates, sql.FieldGT(opts.FieldID, cursor.ID))
			} else {
				predicates = append(predicates, sql.FieldLT(opts.FieldID, cursor.ID))
			}
			continue
		}
		p, err := cursorPredicate(cursor, opts)
		if err != nil {
			return nil, err
		}
		predicates = append(predicates, p)
	}
	return predicates, nil
}

// terms are a cursor's ordered columns, their directions and the
// cursor's values for them, the ID last (added when the order lacks it).
type terms struct {
	fields     []string
	directions []entgql.OrderDirection
	values     []any
}

func cursorTerms[T any](cursor *entgql.Cursor[T], opts *entgql.MultiCursorsOptions) (terms, error) {
	values, ok := cursor.Value.([]any)
	if !ok {
		return terms{}, fmt.Errorf("cursor %T is not a slice", cursor.Value)
	}
	if len(values) != len(opts.Fields) {
		return terms{}, fmt.Errorf("cursor values length %d do not match orderBy fields length %d", len(values), len(opts.Fields))
	}
	if len(opts.Directions) != len(opts.Fields) {
		return terms{}, fmt.Errorf("orderBy directions length %d do not match orderBy fields length %d", len(opts.Directions), len(opts.Fields))
	}
	t := terms{fields: slices.Clone(opts.Fields), directions: slices.Clone(opts.Directions), values: slices.Clone(values)}
	if !slices.Contains(t.fields, opts.FieldID) { // the ID makes the row unique
		t.fields = append(t.fields, opts.FieldID)
		t.directions = append(t.directions, opts.DirectionID)
		t.values = append(t.values, cursor.ID)
	}
	return t, nil
}

// cursorPredicate selects the rows after the cursor in the order's
// directions.
func cursorPredicate[T any](cursor *entgql.Cursor[T], opts *entgql.MultiCursorsOptions) (func(*sql.Selector), error) {
	t, err := cursorTerms(cursor, opts)
	if err != nil {
		return nil, err
	}
	return func(s *sql.Selector) {
		columns := make([]string, len(t.fields))
		for i, f := range t.fields {
			columns[i] = s.C(f)
		}
		if oneDirection(t.directions) {
			if t.directions[0] == entgql.OrderDirectionAsc {
				s.Where(sql.CompositeGT(columns, t.values...))
			} else {
				s.Where(sql.CompositeLT(columns, t.values...))
			}
			return
		}
		// (x < x1) OR (x = x1 AND y > y1) OR …, and x <= x1 beside it.
		or := make([]*sql.Predicate, len(columns))
		for i := range columns {
			ands := make([]*sql.Predicate, 0, i+1)
			for j := 0; j < i; j++ {
				ands = append(ands, sql.EQ(columns[j], t.values[j]))
			}
			ands = append(ands, beyond(columns[i], t.directions[i], t.values[i]))
			or[i] = sql.And(ands...)
		}
		lead := sql.LTE(columns[0], t.values[0])
		if t.directions[0] == entgql.OrderDirectionAsc {
			lead = sql.GTE(columns[0], t.values[0])
		}
		s.Where(sql.And(lead, sql.Or(or...)))
	}, nil
}

// beyond is column > value ascending, column < value descending.
func beyond(column string, d entgql.OrderDirection, value any) *sql.Predicate {
	if d == entgql.OrderDirectionAsc {
		return sql.GT(column, value)
	}
	return sql.LT(column, value)
}

func oneDirection(ds []entgql.OrderDirection) bool {
	for _, d := range ds[1:] {
		if d != ds[0] {
			return false
		}
	}
	return true
}

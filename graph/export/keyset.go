package export

import (
	"context"
	"time"

	entsql "entgo.io/ent/dialect/sql"
)

// Exports of a table in keyset pages of (created_at, id): the rows after
// the committed position, written as CSV lines into chunks (chunker.go),
// the last chunk committed with DONE. Each exported object gives how to
// read a page and how to write a row.

// keysetTable is how an export reads and writes one table's rows.
type keysetTable[T any] struct {
	// page reads up to limit rows in the export's order; after (when set)
	// keeps those past the position (keysetAfter).
	page func(ctx context.Context, after func(*entsql.Selector), limit int) ([]T, error)
	// key is a row's position.
	key func(T) (time.Time, string)
	// line appends a row's CSV line.
	line func(b []byte, names []string, row T) []byte
	// sort is the order when it is not created_at (keyset_sort.go).
	sort keysetSort
}

// writeKeyset streams t's rows after the committed position as CSV lines
// with the columns names, committing a chunk whenever one is full and the
// last with DONE.
func writeKeyset[T any](ctx context.Context, ch *exportChunker, t keysetTable[T], names []string, desc bool, pageSize int) error {
	if ch.seq == 0 {
		ch.buf = appendCSVHeader(ch.buf, names)
	}
	more, at, id := ch.rows > 0, ch.lastAt, ch.lastID
	for {
		var after func(*entsql.Selector)
		if more {
			after = t.sort.after(desc, at, id)
		}
		rows, err := t.page(ctx, after, pageSize)
		if err != nil {
			return err
		}
		for _, r := range rows {
			ch.buf = t.line(ch.buf, names, r)
			ch.pending++
			ch.posAt, ch.posID = t.key(r)
			if len(ch.buf) >= ExportChunkSize || ch.pending >= ch.maxRows {
				if err := ch.commit(ctx, false); err != nil {
					return err
				}
			}
		}
		if len(rows) < pageSize {
			return ch.commit(ctx, true)
		}
		more = true
		at, id = t.key(rows[len(rows)-1])
	}
}

// keysetAfter keeps the rows past (at, id) in the order's direction.
func keysetAfter(desc bool, at time.Time, id string) func(*entsql.Selector) {
	return func(s *entsql.Selector) {
		cols := []string{s.C("created_at"), s.C("id")}
		if desc {
			s.Where(entsql.CompositeLT(cols, at, id))
		} else {
			s.Where(entsql.CompositeGT(cols, at, id))
		}
	}
}

// keysetOrder is the page order: (created_at, id) or (sort, id), newest
// (greatest) first when desc.
func keysetOrder[O ~func(*entsql.Selector)](sort keysetSort, desc bool) []O {
	if sort.expr != nil {
		return []O{O(sort.orderBy(desc)), O(entsql.OrderByField("id", direction(desc)).ToFunc())}
	}
	dir := entsql.OrderAsc()
	if desc {
		dir = entsql.OrderDesc()
	}
	return []O{O(entsql.OrderByField("created_at", dir).ToFunc()), O(entsql.OrderByField("id", dir).ToFunc())}
}

// textOf is a nullable text column's CSV value ("" for null).
func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

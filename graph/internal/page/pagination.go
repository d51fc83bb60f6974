package page

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Page sizes of every GraphQL connection.
const (
	DefaultSize = 20
	MaxSize     = 100
)

// Bound applies the default page size when neither first nor last is
// given and rejects pages larger than MaxPageSize, so no connection query
// runs without a LIMIT.
func Bound(first, last *int) (*int, error) {
	for _, n := range []*int{first, last} {
		if n != nil && (*n < 0 || *n > MaxSize) {
			return nil, apperr.InvalidQueryParams("first/last must be between 0 and %d, got %d", MaxSize, *n)
		}
	}
	if first == nil && last == nil {
		n := DefaultSize
		return &n, nil
	}
	return first, nil
}

// Offset checks the v1 lists' limit (1-100, default 10) and page
// (1-99, default 1) and returns the limit and the offset they mean.
func Offset(limit, page *int) (n, offset int, err error) {
	n, err = Limit(limit)
	if err != nil {
		return 0, 0, err
	}
	p := 1
	if page != nil {
		if *page < 1 || *page > 99 {
			return 0, 0, apperr.InvalidQueryParams("Query parameter page must be an integer from 1 to 99")
		}
		p = *page
	}
	return n, (p - 1) * n, nil
}

// Bounded applies boundPage to first/last and then fetches the page.
func Bounded[C any](first, last *int, fetch func(first *int) (C, error)) (C, error) {
	first, err := Bound(first, last)
	if err != nil {
		var zero C
		return zero, err
	}
	return fetch(first)
}

// EagerLoaded reports whether the edge of the field being resolved was
// loaded with its parent (entgql's field collection in a connection or a
// list, see collectListFields): ent's edge method then builds the page from
// memory instead of querying once per parent.
func EagerLoaded[T any](ctx context.Context, named func(string) (T, error)) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil {
		return false
	}
	_, err := named(fc.Field.Alias)
	return err == nil
}

package graph

import "github.com/promoengine/promoengine/graph/apperr"

// Page sizes of every GraphQL connection.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// boundPage applies the default page size when neither first nor last is
// given and rejects pages larger than MaxPageSize, so no connection query
// runs without a LIMIT.
func boundPage(first, last *int) (*int, error) {
	for _, n := range []*int{first, last} {
		if n != nil && (*n < 0 || *n > MaxPageSize) {
			return nil, apperr.InvalidQueryParams("first/last must be between 0 and %d, got %d", MaxPageSize, *n)
		}
	}
	if first == nil && last == nil {
		n := DefaultPageSize
		return &n, nil
	}
	return first, nil
}

// offsetPage checks the v1 lists' limit (1-100, default 10) and page
// (1-99, default 1) and returns the limit and the offset they mean.
func offsetPage(limit, page *int) (n, offset int, err error) {
	n, p := 10, 1
	if limit != nil {
		if *limit < 1 || *limit > 100 {
			return 0, 0, apperr.InvalidQueryParams("Query parameter limit must be an integer from 1 to 100")
		}
		n = *limit
	}
	if page != nil {
		if *page < 1 || *page > 99 {
			return 0, 0, apperr.InvalidQueryParams("Query parameter page must be an integer from 1 to 99")
		}
		p = *page
	}
	return n, (p - 1) * n, nil
}

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

package page

import "github.com/promoengine/promoengine/graph/apperr"

// The paging parameters the v1 lists with starting_after_id share: a
// limit from 1 to 100 (10 by default) and an order by id.

// DefaultLimit is a list's page size when the request names none.
const DefaultLimit = 10

// Limit is the page size a request asks for: DefaultLimit when limit
// is nil, else limit, which must be 1 to 100 (400 otherwise).
func Limit(limit *int) (int, error) {
	if limit == nil {
		return DefaultLimit, nil
	}
	if *limit < 1 || *limit > 100 {
		return 0, apperr.InvalidQueryParams("Query parameter limit must be an integer from 1 to 100")
	}
	return *limit, nil
}

// IDOrder reads an order by id: "id" (or none) ascending, "-id"
// descending; anything else is a 400.
func IDOrder(order *string) (desc bool, err error) {
	if order == nil {
		return false, nil
	}
	switch *order {
	case "id", "":
		return false, nil
	case "-id":
		return true, nil
	}
	return false, apperr.InvalidQueryParams("Query parameter order must be id or -id, got %q", *order)
}

package store

import "github.com/promoengine/promoengine/graph/apperr"

// PreferExact picks from rows matched by "ID or other key" the one whose
// preferred key equals want (e.g. the ID for campaigns, the code for
// vouchers), else the first row, else not_found for want.
func PreferExact[T any](found []T, exact func(T) bool, resourceType, want string) (T, error) {
	for _, row := range found {
		if exact(row) {
			return row, nil
		}
	}
	if len(found) == 0 {
		var zero T
		return zero, apperr.NotFound(resourceType, want)
	}
	return found[0], nil
}

package customer

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// updatedAddress is a customer's address after an update that sent
// change: each member sent changes, each member sent as null (nulls, the
// address's own) is cleared and each member left out keeps its value. An
// address left with no member is nil (the customer has none).
func updatedAddress(current, change *jsonfield.CustomerAddress, nulls shape.Nulls) *jsonfield.CustomerAddress {
	out := jsonfield.CustomerAddress{}
	if current != nil {
		out = *current
	}
	members := []struct {
		name     string
		dst, src **string
	}{
		{"city", &out.City, &change.City}, {"country", &out.Country, &change.Country},
		{"line_1", &out.Line1, &change.Line1}, {"line_2", &out.Line2, &change.Line2},
		{"postal_code", &out.PostalCode, &change.PostalCode}, {"state", &out.State, &change.State},
	}
	empty := true
	for _, m := range members {
		switch {
		case *m.src != nil:
			*m.dst = *m.src
		case nulls.IsNull(m.name):
			*m.dst = nil
		}
		empty = empty && *m.dst == nil
	}
	if empty {
		return nil
	}
	return &out
}

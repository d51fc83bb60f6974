package customer

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// CustomerInput is the customer of a publication or of REST POST
// /v1/customers, and the GraphQL CustomerInput. id names an existing
// customer (source_id is then ignored); otherwise source_id finds or
// creates one. Given profile fields update the customer.
type CustomerInput struct {
	ID          *string                    `json:"id"`
	SourceID    *string                    `json:"source_id"`
	Name        *string                    `json:"name"`
	Description *string                    `json:"description"`
	Email       *string                    `json:"email"`
	Phone       *string                    `json:"phone"`
	Address     *jsonfield.CustomerAddress `json:"address"`
	Metadata    map[string]any             `json:"metadata"`
	Birthday    *string                    `json:"birthday"`
	// Birthdate is the real service's other spelling (REST only).
	Birthdate *string `json:"birthdate"`
	// Nulls are the members sent as an explicit null: on an update
	// (PUT /v1/customers/{id}) each clears its field.
	shape.Nulls
}

package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// IDMixin gives an entity a prefixed random string ID (see package pulid).
type IDMixin struct {
	mixin.Schema
	// Prefix starts every ID, e.g. "camp_".
	Prefix string
	// Length is the number of random characters after the prefix.
	Length int
}

// Fields of the IDMixin.
func (m IDMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").
			DefaultFunc(pulid.Generator(m.Prefix, m.Length)).
			NotEmpty().
			Immutable(),
	}
}

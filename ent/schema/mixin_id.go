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
	// Hex draws lowercase hex characters instead of alphanumerics (the
	// real service's async-action and transaction IDs are hex).
	Hex bool
	// Ordered makes IDs that sort in creation order (pulid.Ordered; Length
	// is then the number of random hex characters after the clock).
	Ordered bool
}

// Fields of the IDMixin.
func (m IDMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").
			DefaultFunc(m.generator()).
			NotEmpty().
			Immutable(),
	}
}

func (m IDMixin) generator() func() string {
	if m.Ordered {
		return func() string { return m.Prefix + pulid.Ordered(m.Length/2) }
	}
	if m.Hex {
		return func() string { return m.Prefix + pulid.Hex(m.Length/2) }
	}
	return pulid.Generator(m.Prefix, m.Length)
}

package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Consent (cnst_) is one of a project's marketing consents, the legacy
// consents calls of SDK 2.9 (GET /v1/consents; graph/customer owns the use
// cases, docs/customers.md "Consents").
type Consent struct{ ent.Schema }

// Mixin of the Consent.
func (Consent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixConsent, Length: 16, Ordered: true}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the Consent.
func (Consent) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("description").Default("").MaxLen(1000),
		field.String("category").Default("").MaxLen(200),
	}
}

// Annotations of the Consent: GraphQL types are hand-written.
func (Consent) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("consents"), entgql.Skip(entgql.SkipAll)}
}

// ConsentGroup (cgrp_) is a named group of a project's consents.
type ConsentGroup struct{ ent.Schema }

// Mixin of the ConsentGroup.
func (ConsentGroup) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixConsentGroup, Length: 16, Ordered: true}, ProjectMixin{}, TimeMixin{}}
}

// Fields of the ConsentGroup: consents are the ids of its consents, in
// the order given (a consent's delete removes it from every group).
func (ConsentGroup) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("description").Default("").MaxLen(1000),
		field.Strings("consents"),
	}
}

// Annotations of the ConsentGroup: GraphQL types are hand-written.
func (ConsentGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("consent_groups"), entgql.Skip(entgql.SkipAll)}
}

// CustomerConsent (ccon_) is a consent a customer has given: the row
// exists while the consent is granted.
type CustomerConsent struct{ ent.Schema }

// Mixin of the CustomerConsent.
func (CustomerConsent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixCustomerConsent, Length: 16, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the CustomerConsent.
func (CustomerConsent) Fields() []ent.Field {
	return []ent.Field{
		field.String("customer_id").Immutable(),
		field.String("consent_id").Immutable(),
	}
}

// Indexes of the CustomerConsent: a consent is granted once per customer;
// a consent's delete finds its grants by consent_id.
func (CustomerConsent) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "customer_id", "consent_id").Unique(),
		index.Fields("project_id", "consent_id"),
	}
}

// Annotations of the CustomerConsent.
func (CustomerConsent) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("customer_consents"), entgql.Skip(entgql.SkipAll)}
}

// ConsentChange (ccev_) records one grant or withdrawal of a customer's
// consent: the customer.consents.given / customer.consents.revoked
// activities. The consent's name is kept so the activity still reads
// after the consent is deleted.
type ConsentChange struct{ ent.Schema }

// Mixin of the ConsentChange.
func (ConsentChange) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixConsentChange, Length: 16, Ordered: true},
		ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the ConsentChange.
func (ConsentChange) Fields() []ent.Field {
	return []ent.Field{
		field.String("customer_id").Immutable(),
		field.String("consent_id").Immutable(),
		field.String("consent_name").Immutable(),
		field.Bool("granted").Immutable(),
	}
}

// Indexes of the ConsentChange: a customer's changes page by (created_at, id).
func (ConsentChange) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "customer_id", "created_at", "id")}
}

// Annotations of the ConsentChange.
func (ConsentChange) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("consent_changes"), entgql.Skip(entgql.SkipAll)}
}

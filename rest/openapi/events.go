package openapi

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty/event"
	"github.com/promoengine/promoengine/graph/metadata"
)

// events documents custom events and the metadata schemas that define
// them (rest/events.go).
func events(a *API) {
	a.Tag("Events", "Custom events of customers and the metadata schemas that define them.")
	schema := a.Schema("MetadataSchema", Object(
		Req("id", String()),
		Req("related_object", String().Desc("What the schema describes (event: a custom event's name).")),
		Req("name", String()),
		Req("properties", MapOf(notNull(FromGo[jsonfield.MetadataProperty]()))),
		Req("allow_defined_only", Boolean().Desc("Always false: metadata outside the schema is allowed.")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("metadata_schema")),
	))
	a.Add("POST /v1/metadata-schemas", Op{Summary: "Create a metadata schema", Auth: ServerAPI,
		Description: "A schema with related_object event defines a custom event: name is the event's name.",
		Body:        Input[metadata.MetadataSchemaInput]("related_object", "name"), BodyRequired: true,
		Response: schema, Errors: []int{409}})
	a.Add("GET /v1/metadata-schemas", Op{Summary: "List metadata schemas", Auth: ServerAPI,
		Response: V1List("schemas", schema, true)})
	a.Add("GET /v1/metadata-schemas/{resource}", Op{Summary: "Get a metadata schema", Auth: ServerAPI,
		PathParams: map[string]string{"resource": "The resource the schema defines (campaign, customer, earning_rule, " +
			"loyalty_tier, order, order_item, product, promotion_tier, publication, redemption, reward, voucher, or a " +
			"custom object's name), or the schema's ID (ms_…)."},
		Response: schema})
	a.Add("POST /v1/events", Op{Summary: "Send a custom event", Auth: ServerAPI,
		Description: "Records the event for the customer (created when new); it may convert a referral and " +
			"earn loyalty points.",
		Body: Input[event.SendEventInput]("event", "customer"), BodyRequired: true,
		Response: Ref("CustomEvent")})
	a.Schema("CustomEvent", Object(
		Req("object", Const("event")),
		Req("type", String().Desc("The event's name.")),
		Req("customer", Object(
			Req("id", String()),
			Req("name", String().Null()),
			Req("email", String().Null()),
			Req("source_id", String().Null()),
			Req("metadata", Metadata()),
			Req("object", Const("customer")),
		)),
		Req("referral", Any().Desc("Always null.")),
		Req("loyalty", Any().Desc("Always null.")),
		Req("metadata", Metadata()),
	))
}

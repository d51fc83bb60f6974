package access

import (
	"context"

	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/metadata"
)

// deleteCustomEventSchema deletes a custom event schema that no earning
// rule uses as its trigger (trigger.custom_event.schema_id). A schema in
// use is refused with 409 resource_in_use naming the rules (whatever their
// status: a draft or inactive rule would otherwise be activated with a
// trigger that can never fire); delete them or change their trigger first.
// The real service documents no refusal (docs/events.md, "Event schemas").
func deleteCustomEventSchema(ctx context.Context, id string) error {
	// Lock the schema (PostgreSQL) so that the check and the delete see the
	// same row; a missing one is 404.
	if _, err := metadata.SchemaOfKind(ctx, id, true, metadata.CustomEventSchemaType, true); err != nil {
		return err
	}
	if err := customer.RefuseIfTriggerOf(ctx, id, metadata.CustomEventSchemaType, "Custom event schema", "custom_event", "schema_id"); err != nil {
		return err
	}
	return metadata.DeleteSchemaOfKind(ctx, id, true, metadata.CustomEventSchemaType)
}

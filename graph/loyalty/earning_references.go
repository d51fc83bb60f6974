package loyalty

import (
	"context"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/metadata"
)

// checkTriggerReferences refuses an earning rule trigger that names a
// custom event schema or a segment the caller's project does not have
// (the ent client of ctx sees only the viewer's project, so another
// project's id is missing too): 404 not_found with resource_type
// "custom_event_schema" or "segment", as for a missing incentive in the
// earnings. A schema must be one of related_object "event" (the id the
// earning path matches, event_earning.go); another metadata schema's id
// is missing. The schema row is locked (PostgreSQL) as its delete locks
// it, so a concurrent delete waits and then sees the new rule
// (management_event_schema_delete.go). Run after validateTrigger, on a
// trigger being set.
func checkTriggerReferences(ctx context.Context, t *jsonfield.EarningTrigger) error {
	if t.CustomEvent != nil && t.CustomEvent.SchemaID != "" {
		if _, err := metadata.SchemaOfKind(ctx, t.CustomEvent.SchemaID, true, metadata.CustomEventSchemaType, true); err != nil {
			return err
		}
	}
	if t.Segment != nil && t.Segment.ID != "" {
		if _, err := customer.SegmentOf(ctx, t.Segment.ID, true); err != nil {
			return err
		}
	}
	return nil
}

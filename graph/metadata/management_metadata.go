package metadata

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CustomEventSchemaType is the resource type of custom event schemas.
const CustomEventSchemaType = "custom_event_schema"

// Metadata schemas and custom event schemas through the management API.
// Both are the project's metadata schemas (events.go, /v1/metadata-schemas):
// a custom event schema is one whose related_object is "event" and whose
// name is the event's; a management metadata schema is one per other
// related_object (its name is the related_object).

// EventRelatedObject is the related_object of custom event schemas.
const EventRelatedObject = "event"

// mergeProperties applies the definitions in over props: a definition
// replaces or adds one, {"deleted": true} removes one. fixedTypes refuses a
// changed type (metadata schemas; custom event properties may change).
func mergeProperties(props map[string]jsonfield.MetadataProperty, in map[string]any, fixedTypes bool) (map[string]jsonfield.MetadataProperty, error) {
	out := make(map[string]jsonfield.MetadataProperty, len(props)+len(in))
	for k, v := range props {
		out[k] = v
	}
	for name, raw := range in {
		if def, ok := raw.(map[string]any); raw == nil || (ok && def["deleted"] == true) {
			delete(out, name)
			continue
		}
		p, err := metadataProperty(name, raw)
		if err != nil {
			return nil, err
		}
		if old, ok := out[name]; ok && fixedTypes && old.Type != p.Type {
			return nil, apperr.InvalidPayload("Property .properties.%s.type cannot change from %s to %s", name, old.Type, p.Type)
		}
		out[name] = p
	}
	return out, nil
}

// SchemaOfKind reads a metadata schema of the viewer's project that is a
// custom event schema (events) or not; any other is not found as
// resourceType. lock takes a PostgreSQL row lock for a read-merge-write.
func SchemaOfKind(ctx context.Context, id string, events bool, resourceType string, lock bool) (*ent.MetadataSchema, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.MetadataSchema.Query().Where(metadataschema.ID(id), kindOf(events))
	if lock && entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	ms, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(resourceType, id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", resourceType, err)
	}
	return ms, nil
}

func kindOf(events bool) predicate.MetadataSchema {
	if events {
		return metadataschema.RelatedObject(EventRelatedObject)
	}
	return metadataschema.RelatedObjectNEQ(EventRelatedObject)
}

// SchemasOfKind lists the viewer's project's custom event schemas (events)
// or its other metadata schemas, oldest first.
func SchemasOfKind(ctx context.Context, events bool) ([]*ent.MetadataSchema, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	// A project defines a handful of schemas; the list is bounded anyway.
	all, err := c.MetadataSchema.Query().Where(kindOf(events)).
		Order(ent.Asc(metadataschema.FieldCreatedAt), ent.Asc(metadataschema.FieldID)).Limit(1000).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing metadata schemas: %w", err)
	}
	return all, nil
}

// UpdateSchemaProperties merges in into a schema's properties.
func UpdateSchemaProperties(ctx context.Context, ms *ent.MetadataSchema, in map[string]any, fixedTypes bool) (*ent.MetadataSchema, error) {
	props, err := mergeProperties(ms.Properties, in, fixedTypes)
	if err != nil {
		return nil, err
	}
	ms, err = ms.Update().SetProperties(props).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating metadata schema: %w", err)
	}
	return ms, nil
}

// DeleteSchemaOfKind deletes a schema of the kind (see schemaOfKind).
func DeleteSchemaOfKind(ctx context.Context, id string, events bool, resourceType string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	n, err := c.MetadataSchema.Delete().Where(metadataschema.ID(id), kindOf(events)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("deleting %s: %w", resourceType, err)
	}
	if n == 0 {
		return apperr.NotFound(resourceType, id)
	}
	return nil
}

package access

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/metadata"
)

// Custom event schemas of the management API (…/custom-event-schemas):
// the project's metadata schemas of related_object "event", whose names
// are the custom events POST /v1/events accepts (see events.go).

// CustomEventSchemaInput creates (name and schema required) or changes
// (schema) a custom event schema.
type CustomEventSchemaInput struct {
	Name   *string            `json:"name"`
	Schema *CustomEventSchema `json:"schema"`
}

// CustomEventSchema is the schema part: the event's metadata properties.
type CustomEventSchema struct {
	Properties map[string]any `json:"properties"`
}

// CreateCustomEventSchema defines a custom event; a second one of the same
// name is 409.
func CreateCustomEventSchema(ctx context.Context, in CustomEventSchemaInput) (*ent.MetadataSchema, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if in.Name == nil || *in.Name == "" {
		return nil, required("name")
	}
	if in.Schema == nil {
		return nil, required("schema")
	}
	name := *in.Name
	exists, err := c.MetadataSchema.Query().Where(metadataschema.RelatedObject(metadata.EventRelatedObject), metadataschema.Name(name)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up custom event schemas: %w", err)
	}
	if exists {
		return nil, duplicateCustomEventSchema(name)
	}
	ms, err := metadata.CreateMetadataSchema(ctx, metadata.MetadataSchemaInput{RelatedObject: metadata.EventRelatedObject, Name: name, Properties: in.Schema.Properties})
	if e, ok := apperr.As(err); ok && e.Key == "duplicate_found" { // a racing create won
		return nil, duplicateCustomEventSchema(name)
	}
	return ms, err
}

func duplicateCustomEventSchema(name string) *apperr.Error {
	e := apperr.Duplicate(metadata.CustomEventSchemaType, "Duplicated custom_event_schema exists with name "+name)
	e.ResourceID = name
	return e
}

// UpdateCustomEventSchema adds or replaces the properties given (a type may
// change) and removes those given as {"deleted": true}; the name stays.
func UpdateCustomEventSchema(ctx context.Context, id string, in CustomEventSchemaInput) (*ent.MetadataSchema, error) {
	ms, err := metadata.SchemaOfKind(ctx, id, true, metadata.CustomEventSchemaType, true)
	if err != nil {
		return nil, err
	}
	if in.Name != nil && *in.Name != ms.Name {
		return nil, apperr.InvalidPayload("Property .name cannot change")
	}
	if in.Schema == nil {
		return ms, nil
	}
	return metadata.UpdateSchemaProperties(ctx, ms, in.Schema.Properties, false)
}

func ManagementCustomEventSchemas(ctx context.Context, projectID string) ([]*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) ([]*ent.MetadataSchema, error) {
		return metadata.SchemasOfKind(ctx, true)
	})
}

func ManagementCustomEventSchema(ctx context.Context, projectID, id string) (*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.MetadataSchema, error) {
		return metadata.SchemaOfKind(ctx, id, true, metadata.CustomEventSchemaType, false)
	})
}

func CreateManagementCustomEventSchema(ctx context.Context, projectID string, in CustomEventSchemaInput) (*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.MetadataSchema, error) {
		return CreateCustomEventSchema(ctx, in)
	})
}

func UpdateManagementCustomEventSchema(ctx context.Context, projectID, id string, in CustomEventSchemaInput) (*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.MetadataSchema, error) {
		return UpdateCustomEventSchema(ctx, id, in)
	})
}

func DeleteManagementCustomEventSchema(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) {
		return id, deleteCustomEventSchema(ctx, id)
	})
}

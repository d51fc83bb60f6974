package access

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/metadata"
)

// Metadata schemas of the management API (…/metadata-schemas): one per
// related_object other than "event" (see management_metadata.go).

// metadataSchemaType is the resource type of management metadata schemas.
const metadataSchemaType = "metadata_schema"

// ManagementMetadataSchemaInput creates or changes a metadata schema.
// allow_defined_only is not supported: true is refused rather than ignored.
type ManagementMetadataSchemaInput struct {
	RelatedObject    *string        `json:"related_object"`
	Properties       map[string]any `json:"properties"`
	AllowDefinedOnly *bool          `json:"allow_defined_only"`
	// Nulls are the members an update sent as an explicit null:
	// related_object and properties are required (a null is refused); a
	// null definition in properties removes it (as {"deleted": true}).
	shape.Nulls
}

func (in ManagementMetadataSchemaInput) checkAllowDefinedOnly() error {
	if in.AllowDefinedOnly != nil && *in.AllowDefinedOnly {
		return apperr.InvalidPayload("Property .allow_defined_only: true is not supported; metadata outside the schema is always allowed")
	}
	return nil
}

// CreateManagementMetadataSchema defines the metadata schema of a
// related_object; a second one for the same related_object is 409.
func CreateManagementMetadataSchema(ctx context.Context, in ManagementMetadataSchemaInput) (*ent.MetadataSchema, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if in.RelatedObject == nil || strings.TrimSpace(*in.RelatedObject) == "" {
		return nil, required("related_object")
	}
	if in.Properties == nil {
		return nil, required("properties")
	}
	obj := *in.RelatedObject
	if obj == metadata.EventRelatedObject {
		return nil, apperr.InvalidPayload("Property .related_object cannot be %q: custom events are defined through …/custom-event-schemas", obj)
	}
	if err := in.checkAllowDefinedOnly(); err != nil {
		return nil, err
	}
	exists, err := c.MetadataSchema.Query().Where(metadataschema.RelatedObject(obj)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up metadata schemas: %w", err)
	}
	if exists {
		return nil, duplicateMetadataSchema(obj)
	}
	ms, err := metadata.CreateMetadataSchema(ctx, metadata.MetadataSchemaInput{RelatedObject: obj, Name: obj, Properties: in.Properties})
	if e, ok := apperr.As(err); ok && e.Key == "duplicate_found" { // a racing create won
		return nil, duplicateMetadataSchema(obj)
	}
	return ms, err
}

func duplicateMetadataSchema(relatedObject string) *apperr.Error {
	e := apperr.Duplicate("metadata schema", "Duplicated metadata schema exists with related_object "+relatedObject)
	e.ResourceID = relatedObject
	return e
}

// UpdateManagementMetadataSchema adds, replaces ({"deleted": true}:
// removes) the definitions given; a definition's type cannot change.
func UpdateManagementMetadataSchema(ctx context.Context, id string, in ManagementMetadataSchemaInput) (*ent.MetadataSchema, error) {
	if err := in.RefuseNull("related_object", "properties"); err != nil {
		return nil, err
	}
	if err := in.checkAllowDefinedOnly(); err != nil {
		return nil, err
	}
	ms, err := metadata.SchemaOfKind(ctx, id, false, metadataSchemaType, true)
	if err != nil {
		return nil, err
	}
	if in.RelatedObject != nil && *in.RelatedObject != ms.RelatedObject {
		return nil, apperr.InvalidPayload("Property .related_object cannot change")
	}
	return metadata.UpdateSchemaProperties(ctx, ms, in.Properties, true)
}

func ManagementMetadataSchemas(ctx context.Context, projectID string) ([]*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) ([]*ent.MetadataSchema, error) {
		return metadata.SchemasOfKind(ctx, false)
	})
}

func ManagementMetadataSchema(ctx context.Context, projectID, id string) (*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.MetadataSchema, error) {
		return metadata.SchemaOfKind(ctx, id, false, metadataSchemaType, false)
	})
}

func CreateProjectMetadataSchema(ctx context.Context, projectID string, in ManagementMetadataSchemaInput) (*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.MetadataSchema, error) {
		return CreateManagementMetadataSchema(ctx, in)
	})
}

func UpdateProjectMetadataSchema(ctx context.Context, projectID, id string, in ManagementMetadataSchemaInput) (*ent.MetadataSchema, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.MetadataSchema, error) {
		return UpdateManagementMetadataSchema(ctx, id, in)
	})
}

func DeleteManagementMetadataSchema(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) {
		return id, metadata.DeleteSchemaOfKind(ctx, id, false, metadataSchemaType)
	})
}

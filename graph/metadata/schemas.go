package metadata

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Metadata schemas of the v1 API (/v1/metadata-schemas). A schema of
// related_object "event" defines a custom event that sendEvent accepts
// (events.go). The management API's views of them are in
// management_metadata*.go and management_event_schemas.go.

// MetadataSchemaInput defines a metadata schema (POST /v1/metadata-schemas).
type MetadataSchemaInput struct {
	RelatedObject string         `json:"related_object"`
	Name          string         `json:"name"`
	Properties    map[string]any `json:"properties"`
}

// metadataTypes are the property types a schema may declare: the real
// service's enum (management.json, ManagementProjectsMetadataSchemaDefinition),
// in its order. Values of date, datetime, geopoint and image_url are
// checked in formats.go.
var metadataTypes = []string{"string", "number", "object", "date", "datetime", "geopoint", "boolean", "image_url"}

// CreateMetadataSchema stores a metadata schema; for related_object
// "event" its name becomes a custom event the project accepts.
func CreateMetadataSchema(ctx context.Context, in MetadataSchemaInput) (*ent.MetadataSchema, error) {
	if in.RelatedObject == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'related_object'")
	}
	if in.Name == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if n := utf8.RuneCountInString(in.Name); n > 300 {
		return nil, apperr.InvalidPayload("Property .name must be 1 to 300 characters")
	}
	props := map[string]jsonfield.MetadataProperty{}
	for name, raw := range in.Properties {
		if def, ok := raw.(map[string]any); ok && def["deleted"] == true {
			continue // a deleted definition defines nothing (mergeProperties removes it)
		}
		p, err := metadataProperty(name, raw)
		if err != nil {
			return nil, err
		}
		props[name] = p
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := c.MetadataSchema.Create().SetRelatedObject(in.RelatedObject).SetName(in.Name).SetProperties(props).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Duplicate("metadata_schema", fmt.Sprintf("A metadata schema for %s %q already exists", in.RelatedObject, in.Name))
	}
	if err != nil {
		return nil, fmt.Errorf("creating metadata schema: %w", err)
	}
	return ms, nil
}

// SchemaByIDOrResource finds one of the caller's metadata schemas by its
// ID (ms_…) or, as the reference's GET /v1/metadata-schemas/{resource}, by
// the resource it defines (campaign, customer, order, product, … or a
// custom object's name); the schemas of custom events are not resources.
func SchemaByIDOrResource(ctx context.Context, idOrResource string) (*ent.MetadataSchema, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.MetadataSchema.Query().Where(metadataschema.ID(idOrResource))
	if !strings.HasPrefix(idOrResource, pulid.PrefixMetaSchema) {
		q = c.MetadataSchema.Query().Where(metadataschema.RelatedObject(idOrResource),
			metadataschema.RelatedObjectNEQ(EventRelatedObject)).
			Order(ent.Asc(metadataschema.FieldCreatedAt), ent.Asc(metadataschema.FieldID)).Limit(1)
	}
	ms, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("metadata_schema", idOrResource)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up metadata schema: %w", err)
	}
	return ms, nil
}

// MetadataSchemaList is every metadata schema of the project (v1 list).
func AllMetadataSchemas(ctx context.Context) ([]*ent.MetadataSchema, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	// A project defines a handful of schemas; the list is bounded anyway.
	return c.MetadataSchema.Query().Order(ent.Asc(metadataschema.FieldCreatedAt), ent.Asc(metadataschema.FieldID)).Limit(1000).All(ctx)
}

// Schemas pages through the project's metadata schemas (GraphQL connection).
func Schemas(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.MetadataSchemaOrder, where *ent.MetadataSchemaWhereInput) (*ent.MetadataSchemaConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.MetadataSchema.Query().Paginate(ctx, after, first, before, last,
		ent.WithMetadataSchemaOrder(orderBy), ent.WithMetadataSchemaFilter(where.Filter))
}

// Properties shows a schema's properties as a JSON object.
func Properties(_ context.Context, ms *ent.MetadataSchema) (map[string]any, error) {
	out := make(map[string]any, len(ms.Properties))
	for k, p := range ms.Properties {
		out[k] = p // every option (jsonfield.MetadataProperty's JSON)
	}
	return out, nil
}

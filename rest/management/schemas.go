package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Metadata schemas (…/metadata-schemas) and custom event schemas
// (…/custom-event-schemas) under /management/v1/projects/{projectId}.

// managementSchemaBody is a management metadata schema.
type managementSchemaBody struct {
	ID               string                                `json:"id"`
	RelatedObject    string                                `json:"related_object"`
	Properties       map[string]jsonfield.MetadataProperty `json:"properties"`
	AllowDefinedOnly bool                                  `json:"allow_defined_only"`
	CreatedAt        httpkit.Timestamp                     `json:"created_at"`
	UpdatedAt        *httpkit.Timestamp                    `json:"updated_at"`
	Object           string                                `json:"object"`
}

func managementSchemaJSON(ms *ent.MetadataSchema) managementSchemaBody {
	return managementSchemaBody{ID: ms.ID, RelatedObject: ms.RelatedObject, Properties: properties(ms),
		CreatedAt: httpkit.Timestamp(ms.CreatedAt), UpdatedAt: httpkit.OptionalTime(ms.UpdatedAt), Object: "metadata_schema"}
}

func managementSchemaAny(ms *ent.MetadataSchema) any { return managementSchemaJSON(ms) }

func properties(ms *ent.MetadataSchema) map[string]jsonfield.MetadataProperty {
	if ms.Properties == nil {
		return map[string]jsonfield.MetadataProperty{}
	}
	return ms.Properties
}

// customEventSchemaBody is a custom event schema.
type customEventSchemaBody struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Schema struct {
		Properties map[string]jsonfield.MetadataProperty `json:"properties"`
	} `json:"schema"`
	CreatedAt httpkit.Timestamp  `json:"created_at"`
	UpdatedAt *httpkit.Timestamp `json:"updated_at"`
	Object    string             `json:"object"`
}

func customEventSchemaJSON(ms *ent.MetadataSchema) customEventSchemaBody {
	out := customEventSchemaBody{ID: ms.ID, Name: ms.Name, CreatedAt: httpkit.Timestamp(ms.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(ms.UpdatedAt), Object: "custom-event-schema"}
	out.Schema.Properties = properties(ms)
	return out
}

func customEventSchemaAny(ms *ent.MetadataSchema) any { return customEventSchemaJSON(ms) }

// listMetadataSchemas serves GET …/metadata-schemas.
func (h handlers) listMetadataSchemas(c *gin.Context) {
	all, err := h.root.Query().ManagementMetadataSchemas(c.Request.Context(), c.Param("projectId"))
	httpkit.Answer(c, http.StatusOK, all, err, func(all []*ent.MetadataSchema) any { return httpkit.ListOf(all, managementSchemaJSON) })
}

// getMetadataSchema serves GET …/metadata-schemas/{metadataSchemaId}.
func (h handlers) getMetadataSchema(c *gin.Context) {
	ms, err := h.root.Query().ManagementMetadataSchema(c.Request.Context(), c.Param("projectId"), c.Param("schemaId"))
	httpkit.Answer(c, http.StatusOK, ms, err, managementSchemaAny)
}

// createMetadataSchema serves POST …/metadata-schemas: {related_object, properties}.
func (h handlers) createMetadataSchema(c *gin.Context) {
	var in access.ManagementMetadataSchemaInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	ms, err := h.root.Mutation().CreateManagementMetadataSchema(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, ms, err, managementSchemaAny)
}

// updateMetadataSchema serves PUT …/metadata-schemas/{metadataSchemaId}: {properties}.
func (h handlers) updateMetadataSchema(c *gin.Context) {
	var in access.ManagementMetadataSchemaInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	ms, err := h.root.Mutation().UpdateManagementMetadataSchema(c.Request.Context(), c.Param("projectId"), c.Param("schemaId"), in)
	httpkit.Answer(c, http.StatusOK, ms, err, managementSchemaAny)
}

// deleteMetadataSchema serves DELETE …/metadata-schemas/{metadataSchemaId}: 204.
func (h handlers) deleteMetadataSchema(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementMetadataSchema(c.Request.Context(), c.Param("projectId"), c.Param("schemaId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

// listCustomEventSchemas serves GET …/custom-event-schemas.
func (h handlers) listCustomEventSchemas(c *gin.Context) {
	all, err := h.root.Query().ManagementCustomEventSchemas(c.Request.Context(), c.Param("projectId"))
	httpkit.Answer(c, http.StatusOK, all, err, func(all []*ent.MetadataSchema) any { return httpkit.ListOf(all, customEventSchemaJSON) })
}

// getCustomEventSchema serves GET …/custom-event-schemas/{customEventSchemaId}.
func (h handlers) getCustomEventSchema(c *gin.Context) {
	ms, err := h.root.Query().ManagementCustomEventSchema(c.Request.Context(), c.Param("projectId"), c.Param("schemaId"))
	httpkit.Answer(c, http.StatusOK, ms, err, customEventSchemaAny)
}

// createCustomEventSchema serves POST …/custom-event-schemas: {name, schema: {properties}}.
func (h handlers) createCustomEventSchema(c *gin.Context) {
	var in access.CustomEventSchemaInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	ms, err := h.root.Mutation().CreateManagementCustomEventSchema(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, ms, err, customEventSchemaAny)
}

// updateCustomEventSchema serves PUT …/custom-event-schemas/{customEventSchemaId}: {schema: {properties}}.
func (h handlers) updateCustomEventSchema(c *gin.Context) {
	var in access.CustomEventSchemaInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	ms, err := h.root.Mutation().UpdateManagementCustomEventSchema(c.Request.Context(), c.Param("projectId"), c.Param("schemaId"), in)
	httpkit.Answer(c, http.StatusOK, ms, err, customEventSchemaAny)
}

// deleteCustomEventSchema serves DELETE …/custom-event-schemas/{customEventSchemaId}: 204.
func (h handlers) deleteCustomEventSchema(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementCustomEventSchema(c.Request.Context(), c.Param("projectId"), c.Param("schemaId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

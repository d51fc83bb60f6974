package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty/event"
	"github.com/promoengine/promoengine/graph/metadata"
)

// eventHandlers serve /v1/metadata-schemas and /v1/events through the
// GraphQL resolvers.
type eventHandlers struct{ root *graph.Resolver }

type metadataSchemaBody struct {
	ID            string         `json:"id"`
	RelatedObject string         `json:"related_object"`
	Name          string         `json:"name"`
	Properties    map[string]any `json:"properties"`
	// AllowDefinedOnly is always false: metadata outside a schema is
	// allowed (the real service's schemas say so with false).
	AllowDefinedOnly bool       `json:"allow_defined_only"`
	CreatedAt        timestamp  `json:"created_at"`
	UpdatedAt        *timestamp `json:"updated_at"`
	Object           string     `json:"object"`
}

func (h eventHandlers) schemaJSON(ctx context.Context, ms *ent.MetadataSchema) metadataSchemaBody {
	props, _ := h.root.MetadataSchema().Properties(ctx, ms)
	return metadataSchemaBody{ID: ms.ID, RelatedObject: ms.RelatedObject, Name: ms.Name, Properties: props,
		CreatedAt: timestamp(ms.CreatedAt), UpdatedAt: optionalTime(ms.UpdatedAt), Object: "metadata_schema"}
}

// createSchema serves POST /v1/metadata-schemas.
func (h eventHandlers) createSchema(c *gin.Context) {
	var in metadata.MetadataSchemaInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var ms *ent.MetadataSchema
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		ms, err = h.root.Mutation().CreateMetadataSchema(ctx, in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.schemaJSON(c.Request.Context(), ms))
}

// listSchemas serves GET /v1/metadata-schemas.
func (h eventHandlers) listSchemas(c *gin.Context) {
	all, err := h.root.Query().MetadataSchemaList(c.Request.Context())
	if err != nil {
		renderError(c, err)
		return
	}
	items := make([]metadataSchemaBody, len(all))
	for i, ms := range all {
		items[i] = h.schemaJSON(c.Request.Context(), ms)
	}
	// As the real service (and the SDK's MetadataSchemasListResponse): the
	// array is schemas, named by data_ref.
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "schemas", "schemas": items, "total": len(items)})
}

// getSchema serves GET /v1/metadata-schemas/{resource}: by the resource it
// defines or by ID.
func (h eventHandlers) getSchema(c *gin.Context) {
	ms, err := h.root.Query().MetadataSchema(c.Request.Context(), c.Param("resource"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.schemaJSON(c.Request.Context(), ms))
}

type eventBody struct {
	Object   string             `json:"object"`
	Type     string             `json:"type"`
	Customer clientCustomerBody `json:"customer"`
	Referral any                `json:"referral"`
	Loyalty  any                `json:"loyalty"`
	Metadata map[string]any     `json:"metadata"`
}

// send serves POST /v1/events.
func (h eventHandlers) send(c *gin.Context) {
	var in event.SendEventInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	h.record(c, c.Request.Context(), in)
}

// record sends a decoded event in ctx (server- or client-side) and answers
// with it.
func (h eventHandlers) record(c *gin.Context, ctx context.Context, in event.SendEventInput) {
	var body eventBody
	err := graph.InTx(ctx, func(ctx context.Context) error {
		ev, err := h.root.Mutation().SendEvent(ctx, in)
		if err != nil {
			return err
		}
		cust, err := h.root.CustomEvent().Customer(ctx, ev)
		if err != nil {
			return err
		}
		body = eventBody{Object: "event", Type: ev.Type, Metadata: orEmpty(ev.Metadata),
			Customer: clientCustomerBody{ID: cust.ID, Name: cust.Name, Email: cust.Email, SourceID: cust.SourceID,
				Metadata: orEmpty(cust.Metadata), Object: "customer"}}
		if isClientView(c) {
			body.Customer = clientCustomer(cust.ID, cust.SourceID)
		}
		return nil
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Brand configuration: /management/v1/projects/{projectId}/branding.

// brandingBody is the interface's brand configuration.
type brandingBody struct {
	ID       string             `json:"id"`
	Brand    jsonfield.Brand    `json:"brand"`
	Address  jsonfield.Address  `json:"address"`
	Contact  jsonfield.Contact  `json:"contact"`
	Cockpits jsonfield.Cockpits `json:"cockpits"`
}

func brandingJSON(b *ent.Branding) brandingBody {
	return brandingBody{ID: b.ID, Brand: b.Brand, Address: b.Address, Contact: b.Contact, Cockpits: b.Cockpits}
}

func brandingAny(b *ent.Branding) any { return brandingJSON(b) }

// createBranding serves POST …/branding.
func (h handlers) createBranding(c *gin.Context) {
	var in access.BrandingInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	b, err := h.root.Mutation().CreateManagementBranding(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, b, err, brandingAny)
}

// listBrandings serves GET …/branding: a list of the project's one brand (or none).
func (h handlers) listBrandings(c *gin.Context) {
	bs, err := h.root.Query().ManagementBrandings(c.Request.Context(), c.Param("projectId"))
	httpkit.Answer(c, http.StatusOK, bs, err, func(bs []*ent.Branding) any { return httpkit.ListOf(bs, brandingJSON) })
}

// getBranding serves GET …/branding/{brandingId}.
func (h handlers) getBranding(c *gin.Context) {
	b, err := h.root.Query().ManagementBranding(c.Request.Context(), c.Param("projectId"), c.Param("brandingId"))
	httpkit.Answer(c, http.StatusOK, b, err, brandingAny)
}

// updateBranding serves PUT …/branding/{brandingId}: only what is sent
// changes; null clears a nullable field.
func (h handlers) updateBranding(c *gin.Context) {
	var in access.BrandingInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	b, err := h.root.Mutation().UpdateManagementBranding(c.Request.Context(), c.Param("projectId"), c.Param("brandingId"), in)
	httpkit.Answer(c, http.StatusOK, b, err, brandingAny)
}

// deleteBranding serves DELETE …/branding/{brandingId}: 204.
func (h handlers) deleteBranding(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementBranding(c.Request.Context(), c.Param("projectId"), c.Param("brandingId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

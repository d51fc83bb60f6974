package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/access"
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
func (h managementHandlers) createBranding(c *gin.Context) {
	var in access.BrandingInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	b, err := h.root.Mutation().CreateManagementBranding(c.Request.Context(), c.Param("projectId"), in)
	answer(c, http.StatusOK, b, err, brandingAny)
}

// listBrandings serves GET …/branding: a list of the project's one brand (or none).
func (h managementHandlers) listBrandings(c *gin.Context) {
	bs, err := h.root.Query().ManagementBrandings(c.Request.Context(), c.Param("projectId"))
	answer(c, http.StatusOK, bs, err, func(bs []*ent.Branding) any { return listOf(bs, brandingJSON) })
}

// getBranding serves GET …/branding/{brandingId}.
func (h managementHandlers) getBranding(c *gin.Context) {
	b, err := h.root.Query().ManagementBranding(c.Request.Context(), c.Param("projectId"), c.Param("brandingId"))
	answer(c, http.StatusOK, b, err, brandingAny)
}

// updateBranding serves PUT …/branding/{brandingId}: only what is sent
// changes; null clears a nullable field.
func (h managementHandlers) updateBranding(c *gin.Context) {
	var in access.BrandingInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	b, err := h.root.Mutation().UpdateManagementBranding(c.Request.Context(), c.Param("projectId"), c.Param("brandingId"), in)
	answer(c, http.StatusOK, b, err, brandingAny)
}

// deleteBranding serves DELETE …/branding/{brandingId}: 204.
func (h managementHandlers) deleteBranding(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementBranding(c.Request.Context(), c.Param("projectId"), c.Param("brandingId"))
	answer[any](c, http.StatusNoContent, nil, err, nil)
}

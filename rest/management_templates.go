package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/template"
)

// Management API: a project's campaign templates and their copies into
// other projects, and user invitations.

// registerManagementTemplates mounts …/templates/campaigns on a project
// group and the invitation on the projects group.
func (h managementHandlers) registerManagementTemplates(projects, mgmt *gin.RouterGroup) {
	projects.POST("/users/invite", h.inviteUser)
	mgmt.GET("/templates/campaigns", h.listTemplates)
	mgmt.POST("/templates/campaigns/:campaignTemplateId/copy", h.copyTemplate)
}

// listTemplates serves GET …/{projectId}/templates/campaigns.
func (h managementHandlers) listTemplates(c *gin.Context) {
	in, err := templateListParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	l, err := h.root.Query().ManagementCampaignTemplates(c.Request.Context(), c.Param("projectId"), in)
	answer(c, http.StatusOK, l, err, templateListJSON)
}

// copyTemplate serves POST …/{projectId}/templates/campaigns/{id}/copy.
func (h managementHandlers) copyTemplate(c *gin.Context) {
	var in template.CopyInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	t, err := h.root.Mutation().CopyManagementCampaignTemplate(c.Request.Context(), c.Param("projectId"),
		c.Param("campaignTemplateId"), in)
	answer(c, http.StatusOK, t, err, templateJSON)
}

// inviteUser serves POST /management/v1/projects/users/invite: 204.
func (h managementHandlers) inviteUser(c *gin.Context) {
	var in access.InviteUserInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	_, err := h.root.Mutation().InviteManagementUser(c.Request.Context(), in)
	answer[any](c, http.StatusNoContent, nil, err, nil)
}

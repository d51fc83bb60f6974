package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/template"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/templates"
)

// Management API: a project's campaign templates and their copies into
// other projects (in the v1 templates area's shapes, rest/templates), and
// user invitations.

// registerTemplates mounts …/templates/campaigns on a project
// group and the invitation on the projects group.
func (h handlers) registerTemplates(projects, mgmt *gin.RouterGroup) {
	projects.POST("/users/invite", h.inviteUser)
	mgmt.GET("/templates/campaigns", h.listTemplates)
	mgmt.POST("/templates/campaigns/:campaignTemplateId/copy", h.copyTemplate)
}

// listTemplates serves GET …/{projectId}/templates/campaigns.
func (h handlers) listTemplates(c *gin.Context) {
	in, err := templates.ListParams(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	l, err := h.root.Query().ManagementCampaignTemplates(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, l, err, templates.ListJSON)
}

// copyTemplate serves POST …/{projectId}/templates/campaigns/{id}/copy.
func (h handlers) copyTemplate(c *gin.Context) {
	var in template.CopyInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	t, err := h.root.Mutation().CopyManagementCampaignTemplate(c.Request.Context(), c.Param("projectId"),
		c.Param("campaignTemplateId"), in)
	httpkit.Answer(c, http.StatusOK, t, err, templates.JSON)
}

// inviteUser serves POST /management/v1/projects/users/invite: 204.
func (h handlers) inviteUser(c *gin.Context) {
	var in access.InviteUserInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	_, err := h.root.Mutation().InviteManagementUser(c.Request.Context(), in)
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

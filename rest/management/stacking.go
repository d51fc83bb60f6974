package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/redemption/stacking"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Stacking rules: /management/v1/projects/{projectId}/stacking-rules.

// stackingRulesBody is the management API's stacking rules object.
type stackingRulesBody struct {
	stacking.StackingRules
	CreatedAt httpkit.Timestamp  `json:"created_at"`
	UpdatedAt *httpkit.Timestamp `json:"updated_at"`
}

func stackingRulesJSON(s *stacking.StackingRules) stackingRulesBody {
	return stackingRulesBody{StackingRules: *s, CreatedAt: httpkit.Timestamp(s.CreatedAt), UpdatedAt: httpkit.OptionalTime(s.UpdatedAt)}
}

func stackingRulesAny(s *stacking.StackingRules) any { return stackingRulesJSON(s) }

// listStackingRules serves GET …/stacking-rules: the project's rules, or
// an empty list while the defaults apply.
func (h handlers) listStackingRules(c *gin.Context) {
	all, err := h.root.Query().ManagementStackingRulesList(c.Request.Context(), c.Param("projectId"))
	httpkit.Answer(c, http.StatusOK, all, err, func(all []*stacking.StackingRules) any { return httpkit.ListOf(all, stackingRulesJSON) })
}

// getStackingRules serves GET …/stacking-rules/{stackingRulesId}.
func (h handlers) getStackingRules(c *gin.Context) {
	s, err := h.root.Query().ManagementStackingRules(c.Request.Context(), c.Param("projectId"), c.Param("stackingRulesId"))
	httpkit.Answer(c, http.StatusOK, s, err, stackingRulesAny)
}

// createStackingRules serves POST …/stacking-rules.
func (h handlers) createStackingRules(c *gin.Context) {
	var in stacking.StackingRulesInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	s, err := h.root.Mutation().CreateManagementStackingRules(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, s, err, stackingRulesAny)
}

// updateStackingRules serves PUT …/stacking-rules/{stackingRulesId}: only the settings sent change.
func (h handlers) updateStackingRules(c *gin.Context) {
	var in stacking.StackingRulesInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	s, err := h.root.Mutation().UpdateManagementStackingRules(c.Request.Context(), c.Param("projectId"), c.Param("stackingRulesId"), in)
	httpkit.Answer(c, http.StatusOK, s, err, stackingRulesAny)
}

// deleteStackingRules serves DELETE …/stacking-rules/{stackingRulesId}: 204; the defaults apply again.
func (h handlers) deleteStackingRules(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementStackingRules(c.Request.Context(), c.Param("projectId"), c.Param("stackingRulesId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}

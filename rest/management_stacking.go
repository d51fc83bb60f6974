package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/redemption"
)

// Stacking rules: /management/v1/projects/{projectId}/stacking-rules.

// stackingRulesBody is the management API's stacking rules object.
type stackingRulesBody struct {
	redemption.StackingRules
	CreatedAt timestamp  `json:"created_at"`
	UpdatedAt *timestamp `json:"updated_at"`
}

func stackingRulesJSON(s *redemption.StackingRules) stackingRulesBody {
	return stackingRulesBody{StackingRules: *s, CreatedAt: timestamp(s.CreatedAt), UpdatedAt: optionalTime(s.UpdatedAt)}
}

func stackingRulesAny(s *redemption.StackingRules) any { return stackingRulesJSON(s) }

// listStackingRules serves GET …/stacking-rules: the project's rules, or
// an empty list while the defaults apply.
func (h managementHandlers) listStackingRules(c *gin.Context) {
	all, err := h.root.Query().ManagementStackingRulesList(c.Request.Context(), c.Param("projectId"))
	answer(c, http.StatusOK, all, err, func(all []*redemption.StackingRules) any { return listOf(all, stackingRulesJSON) })
}

// getStackingRules serves GET …/stacking-rules/{stackingRulesId}.
func (h managementHandlers) getStackingRules(c *gin.Context) {
	s, err := h.root.Query().ManagementStackingRules(c.Request.Context(), c.Param("projectId"), c.Param("stackingRulesId"))
	answer(c, http.StatusOK, s, err, stackingRulesAny)
}

// createStackingRules serves POST …/stacking-rules.
func (h managementHandlers) createStackingRules(c *gin.Context) {
	var in redemption.StackingRulesInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	s, err := h.root.Mutation().CreateManagementStackingRules(c.Request.Context(), c.Param("projectId"), in)
	answer(c, http.StatusOK, s, err, stackingRulesAny)
}

// updateStackingRules serves PUT …/stacking-rules/{stackingRulesId}: only the settings sent change.
func (h managementHandlers) updateStackingRules(c *gin.Context) {
	var in redemption.StackingRulesInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	s, err := h.root.Mutation().UpdateManagementStackingRules(c.Request.Context(), c.Param("projectId"), c.Param("stackingRulesId"), in)
	answer(c, http.StatusOK, s, err, stackingRulesAny)
}

// deleteStackingRules serves DELETE …/stacking-rules/{stackingRulesId}: 204; the defaults apply again.
func (h managementHandlers) deleteStackingRules(c *gin.Context) {
	_, err := h.root.Mutation().DeleteManagementStackingRules(c.Request.Context(), c.Param("projectId"), c.Param("stackingRulesId"))
	answer[any](c, http.StatusNoContent, nil, err, nil)
}

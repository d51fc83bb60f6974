// Package validationrules serves the v1 validation rules and their
// assignments (/v1/validation-rules, /v1/validation-rules-assignments)
// through the graph's resolvers (graph/redemption), and renders an
// assignment for rest's voucher routes (AssignmentJSON).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package validationrules

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/redemption/validationrules"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// validationRuleHandlers serve /v1/validation-rules through the resolvers.
type validationRuleHandlers struct{ root *graph.Resolver }

// Register mounts the validation rule routes on v1, each behind auth (the
// v1 keys or a bearer token); root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	h := validationRuleHandlers{root}
	m := root.Mutation()
	v1.POST("/validation-rules", auth, httpkit.Write(httpkit.WithBody(m.CreateValidationRule), validationRuleJSON))
	v1.GET("/validation-rules", auth, h.list)
	v1.GET("/validation-rules/:id", auth, httpkit.Read(httpkit.ByParam("id", root.Query().ValidationRule), validationRuleJSON))
	v1.PUT("/validation-rules/:id", auth, httpkit.Write(httpkit.WithParamAndBody("id", m.UpdateValidationRule), validationRuleJSON))
	v1.DELETE("/validation-rules/:id", auth, httpkit.NoContent(httpkit.ByParam("id", m.DeleteValidationRule)))
	v1.GET("/validation-rules-assignments", auth, h.assignments)
	v1.GET("/validation-rules/:id/assignments", auth, h.assignments)
	v1.POST("/validation-rules/:id/assignments", auth, httpkit.Write(httpkit.WithParamAndBody("id", m.AssignValidationRule), AssignmentJSON))
	v1.DELETE("/validation-rules/:id/assignments/:assignmentId", auth,
		httpkit.NoContent(httpkit.ByParams("id", "assignmentId", m.UnassignValidationRule)))
}

func validationRuleJSON(r *ent.ValidationRule) gin.H {
	h := gin.H{"id": r.ID, "name": r.Name, "type": r.Type, "context_type": r.ContextType, "rules": r.Rules,
		"error": r.Error, "applicable_to": r.ApplicableTo, "created_at": httpkit.Timestamp(r.CreatedAt),
		"updated_at": httpkit.OptionalTime(r.UpdatedAt), "assignments_count": nil, "object": "validation_rules"}
	if r.BundleRules != nil { // docs/promotions.md "Bundles"; {} after a PUT with null
		h["bundle_rules"] = r.BundleRules
	}
	return h
}

// AssignmentJSON renders a rule's assignment as its creation answers it.
func AssignmentJSON(a *ent.ValidationRuleAssignment) gin.H {
	return gin.H{"id": a.ID, "rule_id": a.RuleID, "related_object_id": a.RelatedObjectID,
		"related_object_type": a.RelatedObjectType.String(), "created_at": httpkit.Timestamp(a.CreatedAt),
		"validation_status": "VALID", "validation_omitted_rules": []string{}, "object": "validation_rules_assignment"}
}

// assignments serves GET /v1/validation-rules-assignments (filters rule and
// related_object_id) and GET /v1/validation-rules/{id}/assignments (the
// path names the rule): limit, page, order (created_at or -created_at).
func (h validationRuleHandlers) assignments(c *gin.Context) {
	var in validationrules.RuleAssignmentListInput
	var err error
	if in.Limit, in.Page, err = httpkit.LimitAndPage(c); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	httpkit.QueryStrings(c, map[string]**string{"rule": &in.Rule, "related_object_id": &in.RelatedObjectID, "order": &in.Order})
	if id := c.Param("id"); id != "" {
		in.Rule = &id
	}
	res, err := h.root.Query().ValidationRuleAssignments(c.Request.Context(), &in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	data := make([]gin.H, len(res.Data))
	for i, a := range res.Data {
		data[i] = gin.H{"id": a.ID, "rule_id": a.RuleID, "related_object_id": a.RelatedObjectID,
			"related_object_type": a.RelatedObjectType.String(), "created_at": httpkit.Timestamp(a.CreatedAt),
			"object": "validation_rules_assignment"}
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": data, "total": res.Total})
}

// list serves GET /v1/validation-rules (limit, page; newest first);
// order, start_date and end_date are refused (400).
func (h validationRuleHandlers) list(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err == nil {
		err = httpkit.NotSupported(c.Request.URL.Query(), "the validation rule list", "order", "start_date", "end_date")
	}
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().ValidationRules(c.Request.Context(), limit, page)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	data := make([]any, len(res.Data))
	for i, r := range res.Data {
		data[i] = validationRuleJSON(r)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": data, "total": res.Total})
}

package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/redemption/validationrules"
)

// validationRules documents /v1/validation-rules and their assignments
// (rest/validationrules).
func validationRules(a *API) {
	a.Tag("Validation rules", "Conditions a voucher or campaign must meet to apply, and where they are assigned.")
	rule := a.Schema("ValidationRule", Object(
		Req("id", String()),
		Req("name", String()),
		Req("type", String().Desc("basic, advanced, complex.")),
		Req("context_type", String().Desc("global, ...")),
		Req("rules", FreeObject().Null().Desc("Numbered conditions and their logic.")),
		Req("error", FreeObject().Null().Desc("message shown when the rule fails.")),
		Req("applicable_to", FreeObject().Null().Desc("included/excluded products and SKUs.")),
		Opt("bundle_rules", FreeObject().Desc("limit and the numbered order.items.any parts of a bundle ({} once deleted; docs/promotions.md \"Bundles\").")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("assignments_count", Integer().Null()),
		Req("object", Const("validation_rules")),
	))
	id := map[string]string{"id": "The rule's ID."}
	input := Input[validationrules.ValidationRuleInput]()
	a.Add("POST /v1/validation-rules", Op{Summary: "Create a validation rule", Auth: ServerAPI,
		Body: input.With(Req("name", input.Properties["name"])), BodyRequired: true, Response: rule})
	a.Add("GET /v1/validation-rules", Op{Summary: "List validation rules", Auth: ServerAPI,
		Query: []Param{LimitParam, PageParam}, Response: V1List("data", rule, true)})
	a.Add("GET /v1/validation-rules/{id}", Op{Summary: "Get a validation rule", Auth: ServerAPI, PathParams: id,
		Response: rule})
	a.Add("PUT /v1/validation-rules/{id}", Op{Summary: "Update a validation rule", Auth: ServerAPI, PathParams: id,
		Body: input, Response: rule})
	a.Add("DELETE /v1/validation-rules/{id}", Op{Summary: "Delete a validation rule", Auth: ServerAPI,
		PathParams: id, Status: http.StatusNoContent})
	a.Add("POST /v1/validation-rules/{id}/assignments", Op{Summary: "Assign a validation rule", Auth: ServerAPI,
		Description: "To a voucher or a campaign (one of the two).",
		PathParams:  id, Body: Input[validationrules.RuleAssignmentInput](), BodyRequired: true,
		Response: Ref("ValidationRulesAssignment")})
	listed := Object(
		Req("id", String()),
		Req("rule_id", String()),
		Req("related_object_id", String()),
		Req("related_object_type", Enum("voucher", "campaign", "promotion_tier")),
		Req("created_at", DateTime()),
		Req("object", Const("validation_rules_assignment")),
	)
	order := Query("order", Enum("created_at", "-created_at"), "Newest first by default.")
	a.Add("GET /v1/validation-rules-assignments", Op{Summary: "List validation rule assignments", Auth: ServerAPI,
		Query: []Param{Query("rule", String(), "The assignments of this rule only."),
			Query("related_object_id", String(), "The assignments to this voucher or campaign ID only."),
			LimitParam, PageParam, order},
		Response: V1List("data", listed, true)})
	a.Add("GET /v1/validation-rules/{id}/assignments", Op{Summary: "List a validation rule's assignments", Auth: ServerAPI,
		Description: "An unknown rule has none: an empty list, not a 404 (as the real service answers).",
		PathParams:  id, Query: []Param{LimitParam, PageParam, order}, Response: V1List("data", listed, true)})
	a.Add("DELETE /v1/validation-rules/{id}/assignments/{assignmentId}", Op{Summary: "Unassign a validation rule",
		Auth: ServerAPI, PathParams: map[string]string{"id": "The rule's ID.", "assignmentId": "The assignment's ID."},
		Status: http.StatusNoContent})
}

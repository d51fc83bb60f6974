package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// loyaltyV2Gaps documents #31's v2 routes: deletes and activities,
// benefits (the August spelling of incentives), tier structures and tiers,
// a program's sub-resources and batches, memberships, reward purchases and
// refunds, tier transactions (rest/loyaltyv2).
func loyaltyV2Gaps(a *API) {
	a.Tag("Loyalty tiers and spending", "Tier structures, memberships, program assignments and reward purchases (v2).")
	deleted := func(name string) *Schema {
		return a.schemas[name].With(Req("status", Const("DELETED")))
	}
	id := func(names ...string) map[string]string {
		out := map[string]string{}
		for _, n := range names {
			out[n] = "The resource's ID."
		}
		return out
	}
	activity := func(kind string, types []string) *Schema {
		return V2List(Object(
			Req("id", String()),
			Req("type", Enum(types...)),
			Req(kind+"_id", String()),
			Req("data", Object(Req(kind, FreeObject())).Desc("The resource as it was after the change.")),
			Req("created_at", DateTime()),
			Req("group_id", String().Null()),
			Req("source", Ref("ActivitySource").Null()),
			Req("object", Const(kind+"_activity")),
		))
	}
	activities := func(path, param, kind, stem string) {
		a.Add("GET "+path+"/activities", Op{Summary: "List " + stem + " activities", Auth: Loyalty, PathParams: id(param),
			Query: v2ListQuery, Response: activity(kind, loyaltybase.ResourceActivityTypes(stem))})
	}
	del := func(path, param, noun, schema string, status int) {
		a.Add("DELETE "+path, Op{Summary: "Delete a " + noun, Auth: Loyalty, PathParams: id(param),
			Response: deleted(schema), Errors: []int{status}})
	}
	del("/v2/loyalties/programs/{programId}", "programId", "loyalty program", "LoyaltyProgram", http.StatusConflict)
	activities("/v2/loyalties/programs/{programId}", "programId", "program", "program")
	del("/v2/loyalties/card-definitions/{id}", "id", "card definition", "CardDefinition", http.StatusConflict)
	activities("/v2/loyalties/card-definitions/{id}", "id", "card_definition", "card_definition")
	del("/v2/loyalties/earning-rules/{id}", "id", "earning rule", "EarningRule", http.StatusConflict)
	activities("/v2/loyalties/earning-rules/{id}", "id", "earning_rule", "earning_rule")
	del("/v2/loyalties/incentives/{id}", "id", "incentive", "Incentive", http.StatusConflict)
	activities("/v2/loyalties/incentives/{id}", "id", "incentive", "incentive")
	del("/v2/loyalties/rewards/{id}", "id", "reward", "Reward", http.StatusBadRequest)
	loyaltyBenefits(a, deleted, activity)
	loyaltyTierStructures(a, activities)
	loyaltyProgramAssignments(a)
	loyaltySpending(a)
	loyaltyOrderPayments(a) // loyalty_v2_order_payments.go
	loyaltyMemberUpdateAndExamine(a)
	loyaltyMemberDeleteAndActivities(a, deleted)
	loyaltyV2More(a) // loyalty_v2_more.go
}

// loyaltyBenefits documents /v2/loyalties/benefits.
func loyaltyBenefits(a *API, deleted func(string) *Schema, activity func(string, []string) *Schema) {
	stock := Object(
		Req("type", Enum("UNLIMITED", "LIMITED")),
		Opt("limited", Object(Req("quantity", Integer().Range(0, 2147483646)))),
	)
	benefit := a.Schema("Benefit", a.schemas["Incentive"].Without("stock").With(
		Req("id", String().Desc("lben_ and hex digits (the incentive's linc_ id, respelled).")),
		Opt("stock", stock.Desc("Omitted when unlimited.")),
		Opt("material", Object(Req("type", Enum("PRODUCT", "SKU")), Opt("product", Object(Req("id", String()))),
			Opt("sku", Object(Req("product_id", String()), Req("id", String())))).
			Desc("MATERIAL: type PRODUCT with product, or SKU with sku; the other member is left out.")),
		Req("object", Const("benefit")),
	))
	create := a.Schema("BenefitCreate", a.schemas["IncentiveCreate"].Without("stock").With(Opt("stock", stock)))
	update := a.Schema("BenefitUpdate", a.schemas["IncentiveUpdate"].Without("stock").With(Opt("stock", stock)))
	item := "/v2/loyalties/benefits/{benefitId}"
	bid := map[string]string{"benefitId": "The benefit's ID (lben_ or linc_)."}
	a.Add("POST /v2/loyalties/benefits", Op{Summary: "Create a benefit", Auth: Loyalty, Body: create, BodyRequired: true,
		Response: benefit, Errors: []int{http.StatusConflict}})
	a.Add("GET /v2/loyalties/benefits", Op{Summary: "List benefits", Auth: Loyalty, Query: v2ListQuery, Response: V2List(benefit)})
	a.Add("GET "+item, Op{Summary: "Get a benefit", Auth: Loyalty, PathParams: bid, Response: benefit})
	a.Add("PUT "+item, Op{Summary: "Update a benefit", Auth: Loyalty, PathParams: bid, Body: update, Response: benefit})
	a.Add("DELETE "+item, Op{Summary: "Delete a benefit", Auth: Loyalty, PathParams: bid,
		Response: deleted("Benefit"), Errors: []int{http.StatusConflict}})
	a.Add("POST "+item+"/activate", Op{Summary: "Activate a benefit", Auth: Loyalty, PathParams: bid, Response: benefit,
		Errors: []int{http.StatusConflict}})
	a.Add("POST "+item+"/draft", Op{Summary: "Return a benefit to draft", Auth: Loyalty, PathParams: bid, Response: benefit,
		Errors: []int{http.StatusConflict}})
	a.Add("GET "+item+"/activities", Op{Summary: "List benefit activities", Auth: Loyalty, PathParams: bid,
		Query: v2ListQuery, Response: activity("benefit", loyaltybase.ResourceActivityTypes("benefit"))})
}

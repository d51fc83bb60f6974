package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/campaign"
)

// categories documents /v1/categories (rest/categories).
func categories(a *API) {
	a.Tag("Categories", "Categories group campaigns for stacking; a campaign names its category by ID or name.")
	object := Object(
		Req("id", String()),
		Req("name", String().Desc("Unique within the project.")),
		Req("hierarchy", Integer().Desc("0 or more; lower is applied first.")),
		Req("created_at", DateTime()),
		Opt("updated_at", DateTime().Desc("Left out until the category is first updated.")),
		Req("object", Const("category")),
	)
	category := a.Schema("Category", object)
	// A redeemable's category in a validation or qualification.
	a.Schema("RedeemableCategory", object.With(Opt("stacking_rules_type", Enum("JOINT", "EXCLUSIVE").
		Desc("The project's stacking rules name the category among joint_categories or exclusive_categories (absent otherwise)."))))
	id := map[string]string{"categoryId": "The category's ID (cat_…)."}
	body := Input[campaign.CategoryInput]("name", "hierarchy")
	a.Add("GET /v1/categories", Op{Summary: "List categories", Auth: ServerAPI,
		Query: []Param{Query("limit", Integer().Range(1, 100), "Items per page (1-100, default 100)."),
			Query("starting_after_id", String(), "The last category of the previous page.")},
		Response: V1List("data", category, true).With(Req("has_more", Boolean()))})
	a.Add("POST /v1/categories", Op{Summary: "Create a category", Auth: ServerAPI, Body: body, BodyRequired: true,
		Response: category, Errors: []int{http.StatusConflict}})
	a.Add("GET /v1/categories/{categoryId}", Op{Summary: "Get a category", Auth: ServerAPI, PathParams: id, Response: category})
	a.Add("PUT /v1/categories/{categoryId}", Op{Summary: "Update a category", Auth: ServerAPI, PathParams: id,
		Body: body, BodyRequired: true, Response: category, Errors: []int{http.StatusConflict}})
	a.Add("DELETE /v1/categories/{categoryId}", Op{Summary: "Delete a category", Auth: ServerAPI, PathParams: id,
		Description: "Campaigns and vouchers of the category are left without one.", Status: http.StatusNoContent})
}

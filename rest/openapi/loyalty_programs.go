package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// v2 list query parameters (rest/loyaltyv2/lists.go).
var v2ListQuery = []Param{LimitParam, OrderParam("created_at"), CursorParam}

// loyaltyResource adds the usual v2 operations on a resource: create,
// list, get, update and the status moves given, each answering with the
// resource. Its request bodies become the schemas <name>Create and
// <name>Update.
type loyaltyResource struct {
	path, name, noun, plural, param string
	schema, create, update          *Schema
	moves                           []string
}

func (r loyaltyResource) add(a *API) {
	item := "/v2/loyalties/" + r.path + "/{" + r.param + "}"
	id := map[string]string{r.param: "The " + r.noun + "'s ID."}
	create := a.Schema(r.name+"Create", r.create)
	update := a.Schema(r.name+"Update", r.update)
	a.Add("POST /v2/loyalties/"+r.path, Op{Summary: "Create a " + r.noun, Auth: Loyalty,
		Body: create, BodyRequired: true, Response: r.schema})
	a.Add("GET /v2/loyalties/"+r.path, Op{Summary: "List " + r.plural, Auth: Loyalty, Query: v2ListQuery,
		Response: V2List(r.schema)})
	a.Add("GET "+item, Op{Summary: "Get a " + r.noun, Auth: Loyalty, PathParams: id, Response: r.schema})
	a.Add("PUT "+item, Op{Summary: "Update a " + r.noun, Auth: Loyalty, PathParams: id, Body: update,
		Response: r.schema})
	for _, move := range r.moves {
		a.Add(http.MethodPost+" "+item+"/"+move, Op{Summary: moveSummary[move] + " a " + r.noun, Auth: Loyalty,
			PathParams: id, Response: r.schema, Errors: []int{http.StatusConflict}})
	}
}

var moveSummary = map[string]string{"activate": "Activate", "deactivate": "Deactivate", "draft": "Return to draft"}

// loyaltyPrograms documents loyalty programs and card definitions
// (rest/loyaltyv2: routes.go, lists.go).
func loyaltyPrograms(a *API) {
	a.Tag("Loyalty programs", "Loyalty programs and the definitions of their cards (v2).")
	program := a.Schema("LoyaltyProgram", Object(
		Req("id", String()),
		Req("name", String()),
		Req("status", EnumOf(programStatuses...)),
		Req("start_date", DateTime().Null()),
		Req("end_date", DateTime().Null()),
		Req("metadata", Metadata()),
		Req("card_definitions", Array(FromGo[jsonfield.IDRef]())),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("program")),
	))
	loyaltyResource{path: "programs", name: "LoyaltyProgram", noun: "loyalty program", plural: "loyalty programs",
		param:  "programId",
		schema: program, create: Input[loyaltybase.CreateLoyaltyProgramInput]("name"),
		update: Input[loyaltybase.UpdateLoyaltyProgramInput](), moves: []string{"activate", "deactivate"}}.add(a)
	definition := a.Schema("CardDefinition", Object(
		Req("id", String()),
		Req("name", String()),
		Req("type", String().Desc("INDIVIDUAL.")),
		Req("status", EnumOf(cardDefinitionStatuses...)),
		Req("code_config", Object(Req("pattern", String()), Req("length", Integer()), Req("charset", String()),
			Req("prefix", String()), Req("postfix", String()))),
		Req("metadata", Metadata()),
		Req("pay_with_points", FromGo[jsonfield.PayWithPoints]().Desc("NO_PAYMENTS, or EXCHANGE_RATIO with the formula of the amount (minor unit) one point pays.")),
		Req("pending_points", FromGo[jsonfield.PendingPoints]().Desc("IMMEDIATE, or PERIOD_BASED (earned points wait the period), FIXED_DATES (until the next calendar date) or EVENT_BASED (until a custom event, canceled after cancel_period) before they join the balance.")),
		Req("points_expiration", FreeObject().Desc("{type: NO_EXPIRATION|ROLLING_EXPIRATION|CALENDAR_EXPIRATION|SLIDING_EXPIRATION} with the matching variant; applied to earned points without an expiry of their own.")),
		Req("earning_limits", FromGo[jsonfield.CardLimits]().Desc("Stored, not applied yet (docs/loyalty.md).")),
		Req("spending_limits", FromGo[jsonfield.CardLimits]().Desc("Applied to order payments (docs/loyalty.md); not yet to reward purchases.")),
		Req("refunds", FromGo[jsonfield.CardRefunds]().Desc("spent_points applied when an order paid with points is canceled (docs/loyalty.md); the rest stored, not applied yet.")),
		Req("balance_settings", FromGo[jsonfield.CardBalanceSettings]().Desc("Stored, not applied yet (docs/loyalty.md).")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("card_definition")),
	))
	loyaltyResource{path: "card-definitions", name: "CardDefinition", noun: "card definition",
		plural: "card definitions", param: "id",
		schema: definition, create: Input[loyaltybase.CreateCardDefinitionInput]("name"),
		update: Input[loyaltybase.UpdateCardDefinitionInput](), moves: []string{"activate", "draft"}}.add(a)
}

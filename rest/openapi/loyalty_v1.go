package openapi

import (
	"net/http"

	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
)

// loyaltyV1 documents /v1/loyalties (rest/loyalty_v1_*.go): programs are
// LOYALTY_PROGRAM campaigns, members their loyalty cards (vouchers).
func loyaltyV1(a *API) {
	a.Tag("Loyalties (v1)", "Loyalty programs as campaigns and their members as loyalty cards (the legacy v1 API).")
	campaign, card := Ref("Campaign"), Ref("Voucher")
	program := map[string]string{"campaignId": "The program's (campaign's) ID or name."}
	member := map[string]string{"memberId": "The card's code."}
	both := map[string]string{"campaignId": program["campaignId"], "memberId": member["memberId"]}
	a.Add("POST /v1/loyalties", Op{Summary: "v1: Create a loyalty program", Auth: ServerAPI,
		Description:  "A campaign of type LOYALTY_PROGRAM with LOYALTY_CARD vouchers; join_once is always true.",
		Body:         Input[campaignpkg.CreateCampaignInput]("name").With(Opt("loyalty_tiers_expiration", FreeObject())),
		BodyRequired: true, Response: campaign, Errors: []int{http.StatusConflict}})
	a.Add("GET /v1/loyalties", Op{Summary: "v1: List loyalty programs", Auth: ServerAPI,
		Query: []Param{LimitParam, PageParam, OrderParam("created_at", "updated_at"),
			Query("expand", String(), "category: fill each program's categories.")},
		Response: V1List("campaigns", campaign, true)})
	a.Add("GET /v1/loyalties/{campaignId}", Op{Summary: "v1: Get a loyalty program", Auth: ServerAPI,
		PathParams: program, Response: campaign})
	a.Add("PUT /v1/loyalties/{campaignId}", Op{Summary: "v1: Update a loyalty program", Auth: ServerAPI, PathParams: program,
		Body: Input[campaignpkg.UpdateCampaignInput]().With(Opt("loyalty_card", FreeObject().Desc("Template of new cards: points, expiration_rules.")),
			Opt("loyalty_tiers_expiration", FreeObject())),
		Response: campaign})
	a.Add("DELETE /v1/loyalties/{campaignId}", Op{Summary: "v1: Delete a loyalty program", Auth: ServerAPI, PathParams: program,
		Description: "Deletes the program and its cards in the background; without force=true the program goes to the trash bin.",
		Query:       []Param{Query("force", Boolean(), "Delete permanently (true) rather than to the bin.")},
		Response:    Ref("AsyncActionStarted")})

	a.Add("POST /v1/loyalties/{campaignId}/members", Op{Summary: "v1: Add a loyalty member", Auth: ServerAPI, PathParams: program,
		Description: "Publishes a card of the program to the customer (an id or source_id string, or an object to upsert).",
		Body: Object(Req("customer", FreeObject().Desc("Customer object, or its id or source_id as a string.")),
			Opt("voucher", String().Desc("The code of the card to give.")), Opt("channel", String()),
			Opt("source_id", String()), Opt("metadata", Metadata())),
		BodyRequired: true, Response: card})
	a.Add("GET /v1/loyalties/{campaignId}/members", Op{Summary: "v1: List loyalty members", Auth: ServerAPI, PathParams: program,
		Description: "The program's published cards (any card when code or ids is given).",
		Query: []Param{LimitParam, PageParam, OrderParam("created_at", "updated_at", "code"),
			Query("customer", String(), "The holder's id or source_id."), Query("code", String(), ""),
			Query("ids", String(), "Card IDs (repeat or comma-separate)."),
			Query("created_at[before]", DateTime(), ""), Query("created_at[after]", DateTime(), ""),
			Query("updated_at[before]", DateTime(), ""), Query("updated_at[after]", DateTime(), "")},
		Response: V1List("vouchers", card, true)})
	balanceOut := Object(
		Req("points", Integer().Desc("The signed change.")),
		Req("total", Integer().Desc("The card's points after the change.")),
		Req("balance", Integer().Desc("The spendable points after the change.")),
		Req("type", Const("loyalty_card")),
		Req("object", Const("balance")),
		Req("related_object", Object(Req("type", Const("voucher")), Req("id", String()))),
		Req("operation_type", Const("MANUAL")),
	)
	txPage := Object(
		Req("object", Const("list")),
		Req("data_ref", Const("data")),
		Req("data", Array(Ref("VoucherTransaction"))),
		Req("has_more", Boolean()),
		Opt("more_starting_after", String()),
	)
	txQuery := []Param{LimitParam, OrderParam("id", "created_at"),
		Query("starting_after_id", String(), "Continue after this transaction (more_starting_after).")}
	actQuery := []Param{LimitParam, OrderParam("created_at"),
		Query("starting_after_id", String(), "Continue after this activity.")}
	for _, twin := range []struct {
		prefix, suffix string
		params         map[string]string
	}{{"/v1/loyalties/{campaignId}/members/{memberId}", " in a program", both}, {"/v1/loyalties/members/{memberId}", "", member}} {
		a.Add("GET "+twin.prefix, Op{Summary: "v1: Get a loyalty member" + twin.suffix, Auth: ServerAPI,
			PathParams: twin.params, Response: card})
		a.Add("POST "+twin.prefix+"/balance", Op{Summary: "v1: Add or remove a member's points" + twin.suffix, Auth: ServerAPI,
			PathParams: twin.params, Body: Input[loyaltyv1.BalanceInput]("points"), BodyRequired: true, Response: balanceOut})
		a.Add("GET "+twin.prefix+"/transactions", Op{Summary: "v1: List a member's transactions" + twin.suffix, Auth: ServerAPI,
			PathParams: twin.params, Query: txQuery, Response: txPage})
		a.Add("POST "+twin.prefix+"/transactions/export", Op{Summary: "v1: Export a member's transactions" + twin.suffix,
			Auth: ServerAPI, PathParams: twin.params,
			Body: Object(Opt("parameters", Input[exportpkg.ExportParametersInput]())), Response: Ref("Export")})
		a.Add("GET "+twin.prefix+"/activity", Op{Summary: "v1: List a member's activity" + twin.suffix, Auth: ServerAPI,
			PathParams: twin.params, Query: actQuery,
			Response: Object(Req("object", Const("list")), Req("data_ref", Const("data")),
				Req("data", Array(Ref("CustomerActivity"))), Req("has_more", Boolean()), Opt("more_starting_after", String()))})
		a.Add("GET "+twin.prefix+"/activities", Op{Summary: "v1: List a member's activities (deprecated)" + twin.suffix,
			Auth: ServerAPI, PathParams: twin.params, Query: actQuery,
			Response: V1List("activities", Ref("CustomerActivity"), true)})
	}
	a.Add("POST /v1/loyalties/{campaignId}/members/{memberId}/transfers", Op{Summary: "v1: Transfer points to a member",
		Auth: ServerAPI, PathParams: both,
		Description: "Moves points from the cards named in the body to this member's card, in one transaction.",
		Body:        Array(Input[loyaltyv1.TransferInput]("code", "points")), BodyRequired: true, Response: card})
	a.Add("GET /v1/loyalties/{campaignId}/transactions", Op{Summary: "v1: List a loyalty program's transactions",
		Auth: ServerAPI, PathParams: program, Query: txQuery, Response: txPage})
}

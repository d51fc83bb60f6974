package openapi

import (
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
)

// transactions documents gift and loyalty balance changes and the
// transaction lists (rest/transaction_lists.go, rest/exports.go balance).
func transactions(a *API) {
	a.Tag("Transactions", "Balance changes of gift vouchers and loyalty cards.")
	transaction := a.Schema("VoucherTransaction", Object(
		Req("id", String()),
		Req("source_id", String().Null()),
		Req("voucher_id", String()),
		Req("campaign_id", String().Null()),
		Req("source", String().Desc("The channel of the change (API).")),
		Req("reason", String().Null()),
		Req("type", EnumOf(vouchertransaction.TypeCREDITS_ADDITION, vouchertransaction.TypeCREDITS_REMOVAL,
			vouchertransaction.TypeCREDITS_REFUND, vouchertransaction.TypeCREDITS_REDEMPTION,
			vouchertransaction.TypePOINTS_ACCRUAL, vouchertransaction.TypePOINTS_REDEMPTION,
			vouchertransaction.TypePOINTS_REFUND, vouchertransaction.TypePOINTS_ADDITION,
			vouchertransaction.TypePOINTS_REMOVAL, vouchertransaction.TypePOINTS_EXPIRATION,
			vouchertransaction.TypePOINTS_TRANSFER_IN, vouchertransaction.TypePOINTS_TRANSFER_OUT)),
		Req("details", FreeObject().Desc("What caused the change (balance, redemption, rollback, ...).")),
		Req("related_transaction_id", String().Null()),
		Req("created_at", DateTime()),
	))
	page := Object(
		Req("object", Const("list")),
		Req("data_ref", Const("data")),
		Req("data", Array(transaction)),
		Req("has_more", Boolean()),
		Opt("more_starting_after", String().Desc("Pass as starting_after_id for the next page (when has_more).")),
	)
	query := []Param{LimitParam, OrderParam("created_at"),
		Query("starting_after_id", String(), "Continue after this transaction (more_starting_after).")}
	a.Add("POST /v1/vouchers/{code}/balance", Op{Summary: "Add or remove a voucher's balance", Auth: ServerAPI,
		Description: "Adds to (or, with a negative amount, removes from) a gift voucher's balance, in cents.",
		PathParams:  map[string]string{"code": "The voucher's code or ID."},
		Body:        Input[campaign.BalanceInput]("amount"), BodyRequired: true,
		Response: Object(
			Req("amount", Integer().Desc("The change.")),
			Req("total", Integer().Desc("The gift's amount in total.")),
			Req("balance", Integer().Desc("The balance after the change.")),
			Req("type", Const("gift_voucher")),
			Req("object", Const("balance")),
			Req("related_object", Object(Req("type", Const("voucher")), Req("id", String()))),
			Req("operation_type", Const("MANUAL")),
		)})
	a.Add("GET /v1/vouchers/{code}/transactions", Op{Summary: "List a voucher's transactions", Auth: ServerAPI,
		PathParams: map[string]string{"code": "The voucher's code or ID."}, Query: query, Response: page})
	a.Add("GET /v1/campaigns/{campaignId}/transactions", Op{Summary: "List a campaign's transactions",
		Auth: ServerAPI, PathParams: map[string]string{"campaignId": "The campaign's ID or name."},
		Query: query, Response: page})
}

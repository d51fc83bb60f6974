package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/loyalty"
)

// loyaltyOrderPayments documents paying orders with points (v2).
func loyaltyOrderPayments(a *API) {
	mid := map[string]string{"programId": "The program's ID.", "memberId": "The member's ID."}
	path := "/v2/loyalties/programs/{programId}/members/{memberId}/orders/payments"
	tx := a.Schema("OrderTransaction", Object(
		Opt("id", String().Desc("lotx_…; absent on a dry run.")),
		Req("program_id", String()),
		Req("member_id", String()),
		Req("card_id", String()),
		Req("card_definition_id", String()),
		Req("card_transaction_id", String().Null()),
		Req("order_id", String()),
		Req("status", Enum("APPROVED", "REJECTED", "SIMULATED")),
		Req("type", Const("PAY_WITH_POINTS")),
		Req("details", Object(
			Req("reason", String()),
			Req("rejection", Object(Req("reason", Enum("PAYMENT_EXCEEDS_ORDER_TOTAL_AMOUNT", "NOT_ENOUGH_BALANCE"))).Null()),
			Req("metadata", Object(Opt("points_limit", Integer()), Opt("amount_limit", Integer()))),
			Req("payment", Object(Req("amount", Number()), Req("points_spent", Number()), Req("exchange_ratio", Number()))),
		)),
		Opt("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("order_transaction")),
	))
	a.Add("POST "+path, Op{Summary: "Pay for an order with points", Auth: Loyalty,
		Description: "Spends the card's points on the order at the card definition's pay_with_points exchange ratio " +
			"(amount = points × ratio), capped by the balance, the payment_limit and what the order still owes. " +
			"TRANSACTION (default) is processed before the answer: 202 with the APPROVED transaction, or REJECTED " +
			"(PAYMENT_EXCEEDS_ORDER_TOTAL_AMOUNT) when the order's approved payments already cover its total — " +
			"payments of one order are serialised, so an order is never paid twice. DRY_RUN answers 200 and writes nothing. " +
			"423 zero_card_balance, pay_with_points_not_enabled, program_not_active, member_not_active.",
		PathParams: mid, Body: Input[loyalty.PayOrderInput]("card_id", "order"), BodyRequired: true,
		Status: http.StatusAccepted, Response: Object(Req("transaction", tx), Req("status", Const("TRANSACTION_CREATED")),
			Req("message", String())),
		Also: []Response{{Status: http.StatusOK, Description: "Dry run: nothing written.",
			Schema: Object(Req("transaction", tx), Req("status", Const("DRY_RUN")), Req("message", String()))}},
		Errors: []int{http.StatusLocked}})
	a.Add("GET "+path, Op{Summary: "List a member's order payments", Auth: Loyalty,
		Description: "The member's order transactions (APPROVED and REJECTED), newest first; filters are not supported.",
		PathParams:  mid, Query: v2ListQuery, Response: V2List(tx)})
}

package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/loyalty/payment"
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
			Req("rejection", Object(Req("reason", Enum("PAYMENT_EXCEEDS_ORDER_TOTAL_AMOUNT", "NOT_ENOUGH_BALANCE",
				"GLOBAL_SPENDING_LIMIT_EXCEEDED", "TRANSACTION_SPENDING_LIMIT_EXCEEDED")),
				Opt("details", Object(Req("type", String()), Req("limit", Integer()), Opt("spendings", Integer())).
					Desc("The spending limit passed (card definition spending_limits)."))).Null()),
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
			"The card definition's spending_limits are checked under the card's lock: a payment that would pass one is " +
			"REJECTED (GLOBAL_SPENDING_LIMIT_EXCEEDED, TRANSACTION_SPENDING_LIMIT_EXCEEDED) and moves no points. " +
			"Canceling the order gives the points back once (POINTS_RETURNED) when refunds.spent_points is REFUNDABLE " +
			"with RETURN_POINTS REFUND_ALL. " +
			"423 zero_card_balance, pay_with_points_not_enabled, program_not_active, member_not_active.",
		PathParams: mid, Body: Input[payment.PayOrderInput]("card_id", "order"), BodyRequired: true,
		Status: http.StatusAccepted, Response: Object(Req("transaction", tx), Req("status", Const("TRANSACTION_CREATED")),
			Req("message", String())),
		Also: []Response{{Status: http.StatusOK, Description: "Dry run: nothing written.",
			Schema: Object(Req("transaction", tx), Req("status", Const("DRY_RUN")), Req("message", String()))}},
		Errors: []int{http.StatusLocked}})
	a.Add("GET "+path, Op{Summary: "List a member's order payments", Auth: Loyalty,
		Description: "The member's order transactions (APPROVED and REJECTED), newest first, filtered by id and created_at " +
			"($is/$more_than/$less_than count days back from now, UTC).",
		PathParams: mid, Query: append(append([]Param{}, v2ListQuery...),
			Query("filters[junction]", Enum("AND", "OR"), "How the conditions combine (default AND)."),
			Query("filters[id][conditions][$is]", String(), ""),
			Query("filters[id][conditions][$is_not]", String(), ""),
			Query("filters[id][conditions][$in]", Array(String()).AtMost(100), ""),
			Query("filters[id][conditions][$not_in]", Array(String()).AtMost(100), ""),
			Query("filters[created_at][conditions][$before]", String(), "An ISO 8601 date-time."),
			Query("filters[created_at][conditions][$after]", String(), "An ISO 8601 date-time."),
			Query("filters[created_at][conditions][$is]", Integer(), "Created this many days ago."),
			Query("filters[created_at][conditions][$more_than]", Integer(), "Days ago."),
			Query("filters[created_at][conditions][$less_than]", Integer(), "Days ago."),
			Query("filters[created_at][conditions][$has_value]", String(), "Every row."),
			Query("filters[created_at][conditions][$is_unknown]", String(), "No row.")),
		Response: V2List(tx)})
}

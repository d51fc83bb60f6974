package openapi

import (
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/loyalty/event"
)

// clientCustomer is a customer as the client-side API shows it: its ids
// only, never a stored profile field (rest/client_view.go).
var clientCustomer = Object(
	Req("id", String()), Req("name", String().Null().Desc("Always null.")), Req("email", String().Null().Desc("Always null.")),
	Req("source_id", String().Null()), Req("metadata", Metadata().Desc("Always empty.")), Req("object", Const("customer")),
).Desc("The customer's id and source_id; no stored profile field is shown on the client-side API.")

// client documents the client-side API, /client/v1 (rest/client_api.go):
// what web pages call with a client-side key. Each route answers as its
// server-side twin; a route the project has not switched on is a 403.
func client(a *API) {
	a.Tag("Client API", "Calls web pages make with a client-side key from a trusted origin.")
	a.Add("GET /client/v1/validate", Op{Summary: "Validate a voucher from a web page", Auth: ClientAPI,
		Description: "The legacy validation; its request comes as a bracketed query " +
			"(customer[source_id], item[0][product_id], amount, metadata[...], order[metadata][...], " +
			"tracking_id, session_type, session_key, session_ttl, session_ttl_unit).",
		Query: []Param{{Name: "code", Required: true, Schema: String()},
			Query("amount", Integer(), "The order's amount."),
			Query("tracking_id", String(), "")},
		Response: Ref("LegacyValidation")})
	a.Add("POST /client/v1/validations", Op{Summary: "Validate redeemables from a web page", Auth: ClientAPI,
		Body: Ref("StackedRedemptionRequest"), BodyRequired: true, Response: Ref("ValidationResult")})
	a.Add("POST /client/v1/redeem", Op{Summary: "Redeem a voucher from a web page", Auth: ClientAPI,
		Description: "Needs the project's client_redeem_enabled.",
		Query:       []Param{{Name: "code", Required: true, Schema: String()}, Query("tracking_id", String(), "")},
		Body:        Ref("VoucherRedemptionRequest"), Response: Ref("Redemption")})
	a.Add("POST /client/v1/redemptions", Op{Summary: "Redeem redeemables from a web page", Auth: ClientAPI,
		Description: "Needs the project's client_redeem_enabled.",
		Body:        Ref("StackedRedemptionRequest"), BodyRequired: true,
		Response: Object(
			Req("redemptions", Array(Ref("Redemption"))),
			Req("parent_redemption", Ref("Redemption")),
			Req("order", Ref("Order").Null()),
			Opt("inapplicable_redeemables", Array(Ref("RedeemableResult"))),
			Opt("skipped_redeemables", Array(Ref("RedeemableResult"))),
		)})
	a.Add("POST /client/v1/publish", Op{Summary: "Publish a voucher from a web page", Auth: ClientAPI,
		Description: "A voucher of the campaign for the customer named by source_id (never by id). Needs " +
			"the project's client_publish_enabled.",
		Query: []Param{{Name: "campaign", Required: true, Schema: String(), Description: "Campaign name or ID."},
			Query("join_once", Boolean(), "")},
		Body: Object(
			Req("customer", Input[customer.CustomerInput]("source_id").Without("id")),
			Opt("metadata", Metadata()),
			Opt("channel", String()),
			Opt("join_once", Boolean()),
		), BodyRequired: true,
		Response: publicationObject(clientCustomer)})
	a.Add("POST /client/v1/events", Op{Summary: "Send a custom event from a web page", Auth: ClientAPI,
		Description: "Earns no loyalty points and takes no referral or loyalty unless the project enabled " +
			"client_loyalty_events_enabled.",
		Body: Input[event.SendEventInput]("event", "customer"), BodyRequired: true,
		Response: Ref("CustomEvent")})
	a.Add("GET /client/v1/vouchers", Op{Summary: "List vouchers from a web page", Auth: ClientAPI,
		Description: "Needs the project's client_list_vouchers_enabled.",
		Query: []Param{LimitParam, PageParam,
			Query("campaign", String(), "Campaign name."), Query("campaign_id", String(), ""),
			Query("category", String(), ""), Query("customer", String(), "Holder's ID or source_id."),
			Query("created_at[before]", DateTime(), ""), Query("created_at[after]", DateTime(), ""),
			Query("updated_at[before]", DateTime(), ""), Query("updated_at[after]", DateTime(), "")},
		Response: V1List("vouchers", Ref("Voucher"), true)})
	a.Add("POST /client/v1/customers", Op{Summary: "Create a customer from a web page", Auth: ClientAPI,
		Description: "Creates the customer; one that exists (by source_id) is left as it is and answered with " +
			"its id and source_id only. Needs the project's client_create_customer_enabled.",
		Body: Ref("CustomerRequest").Desc("Without id."), BodyRequired: true,
		Response: AnyOf(
			Ref("Customer"),
			Object(Req("id", String()), Req("source_id", String().Null()), Req("object", Const("customer"))),
		)})
}

package openapi

import (
	"net/http"
	"slices"

	"github.com/promoengine/promoengine/ent/redemption"
	rollbackpkg "github.com/promoengine/promoengine/graph/redemption/rollback"
)

// redemptions documents redeeming, the redemption history and rollbacks
// (rest/redemptions.go, rest/redemption_json.go).
func redemptions(a *API) {
	a.Tag("Redemptions", "Redeeming codes, the redemption history and rollbacks.")
	a.Schema("Redemption", Object(
		Req("id", String()),
		Req("object", EnumOf(redemption.ObjectRedemption, redemption.ObjectRedemptionRollback)),
		Req("date", DateTime()),
		Req("customer_id", String().Null()),
		Req("tracking_id", String().Null()),
		Req("metadata", Metadata()),
		Req("result", EnumOf(redemption.ResultSUCCESS, redemption.ResultFAILURE)),
		Req("status", EnumOf(redemption.StatusSUCCEEDED, redemption.StatusFAILED, redemption.StatusROLLED_BACK)),
		Req("related_object_type", Enum("voucher", "promotion_tier", "redemption")),
		Req("related_object_id", String()),
		Req("channel", Object(Req("channel_id", String()), Req("channel_type", String())).Null()),
		Req("order", Ref("Order").Null()),
		Req("customer", Object(
			Req("id", String()), Req("name", String().Null()), Req("email", String().Null()),
			Req("source_id", String().Null()), Req("metadata", Metadata()), Req("object", Const("customer")),
		).Null()),
		Req("voucher", Ref("Voucher").Null()),
		Opt("promotion_tier", Ref("PromotionTier").Desc("A promotion tier's redemption: the tier (null once deleted).").Null()),
		Req("redemption", String().Null().Desc("A redemption's parent (stacked), or the redemption a rollback undid.")),
		Opt("reason", String().Desc("A rollback's reason.")),
		Opt("failure_code", String()),
		Opt("failure_message", String().Null()),
		Opt("amount", Integer().Desc("Gift credits or loyalty points redeemed.")),
		Opt("session", Object(Req("key", String()))),
		Opt("reward", FreeObject()),
		Opt("related_redemptions", Object(Req("rollbacks", Array(Object(Req("id", String())))))),
		Opt("gift", Object(Req("amount", Integer()))),
		Opt("loyalty_card", Object(Req("points", Integer()))),
	).Desc("A redemption or a redemption rollback."))
	red := Ref("Redemption")
	id := map[string]string{"id": "The redemption's ID."}
	listQuery := []Param{LimitParam, PageParam,
		Query("result", Array(String()), "SUCCESS or FAILURE (repeated, or result[])."),
		Query("campaign", String(), "Campaign name or ID."),
		Query("customer", String(), "Customer ID or source_id."),
		Query("created_at[before]", DateTime(), ""), Query("created_at[after]", DateTime(), ""),
		OrderParam("created_at")}
	a.Add("POST /v1/redemptions", Op{Summary: "Redeem redeemables", Auth: ServerAPI,
		Description: "200 with the parent and child redemptions, or 400 with the failure (which is stored).",
		Body:        Ref("StackedRedemptionRequest"), BodyRequired: true,
		Response: Object(
			Req("redemptions", Array(red)),
			Req("parent_redemption", red),
			Req("order", Ref("Order").Null()),
			Opt("inapplicable_redeemables", Array(Ref("RedeemableResult"))),
			Opt("skipped_redeemables", Array(Ref("RedeemableResult"))),
		)})
	filters := Param{Name: "filters", Schema: FreeObject(), Style: "deepObject",
		Description: "filters[<field>][conditions][$is|$is_not|$in|$not_in|$starts_with|…|$has_value|$is_unknown]=… and " +
			"filters[junction]=and|or over voucher_code, related_object_id, related_object_parent_id, parent_redemption_id, " +
			"failure_code, result, object, customer_id, campaign_name; user_login is refused (400)."}
	a.Add("GET /v1/redemptions", Op{Summary: "List redemptions", Auth: ServerAPI, Query: append(slices.Clip(listQuery), filters),
		Response: V1List("redemptions", red, true)})
	a.Add("GET /v1/redemptions/{id}", Op{Summary: "Get a redemption", Auth: ServerAPI, PathParams: id,
		Response: red})
	rollback := Input[rollbackpkg.RollbackInput]()
	rollbackQuery := []Param{Query("reason", String(), "As the body's reason."),
		Query("tracking_id", String(), "As the body's tracking_id.")}
	a.Add("POST /v1/redemptions/{id}/rollback", Op{Summary: "Roll back a redemption", Auth: ServerAPI,
		PathParams: id, Query: rollbackQuery, Body: rollback, Response: red})
	a.Add("POST /v1/redemptions/{id}/rollbacks", Op{Summary: "Roll back a stacked redemption", Auth: ServerAPI,
		PathParams: map[string]string{"id": "The parent redemption's ID."}, Query: rollbackQuery, Body: rollback,
		Response: Object(
			Req("rollbacks", Array(red)),
			Req("parent_rollback", red),
			Req("order", Ref("Order").Null()),
		)})
	code := map[string]string{"code": "The voucher's code or ID."}
	a.Add("POST /v1/vouchers/{code}/redemption", Op{Summary: "Redeem a voucher", Auth: ServerAPI,
		Description: "The legacy redemption of one code: 200 with the redemption, or 400 with the failure.",
		PathParams:  code, Query: []Param{Query("tracking_id", String(), "As the body's tracking_id.")},
		Body: Ref("VoucherRedemptionRequest"), Response: red})
	history := Object(
		Req("quantity", Integer().Null()),
		Req("redeemed_quantity", Integer()),
		Req("object", Const("list")),
		Req("url", String()),
		Req("data_ref", Const("redemption_entries")),
		Req("total", Integer()),
		Req("redemption_entries", Array(red)),
	)
	for _, path := range []string{"/v1/vouchers/{code}/redemption", "/v1/vouchers/{code}/redemptions"} {
		summary := "List a voucher's redemptions"
		if path == "/v1/vouchers/{code}/redemption" {
			summary = "List a voucher's redemptions (legacy path)"
		}
		a.Add(http.MethodGet+" "+path, Op{Summary: summary, Auth: ServerAPI, PathParams: code,
			Query: listQuery, Response: history})
	}
	a.Add("DELETE /v1/vouchers/{code}/sessions/{key}", Op{Summary: "Release a validation session", Auth: ServerAPI,
		PathParams: map[string]string{"code": "The voucher's code.", "key": "The session's key."},
		Status:     http.StatusNoContent})
}

package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/campaign"
)

// vouchers documents the voucher object, adding vouchers to campaigns and
// reading and listing vouchers (rest/vouchers.go, rest/voucher_lists.go).
func vouchers(a *API) {
	a.Tag("Vouchers", "Discount, gift and loyalty card vouchers.")
	asset := Object(Req("id", String()), Req("url", String().Desc("Absolute URL of the PNG image (no credentials).")))
	a.Schema("Voucher", Object(
		Req("id", String()),
		Req("code", String()),
		Req("campaign", String().Null().Desc("The campaign's name; null for a standalone voucher.")),
		Req("campaign_id", String().Null()),
		Req("category", String().Null()),
		Req("category_id", String().Null()),
		Req("categories", Array(Ref("Category")).Desc("The voucher's category, else its campaign's, as a list (empty without one).")),
		Req("type", FromGo[jsonfield.VoucherType]()),
		Req("discount", FromGo[jsonfield.Discount]().Null()),
		Req("gift", FromGo[jsonfield.Gift]().Null().Desc("GIFT_VOUCHER only.")),
		Req("loyalty_card", FromGo[jsonfield.LoyaltyCard]().Null().Desc("LOYALTY_CARD only.")),
		Req("start_date", DateTime().Null()),
		Req("expiration_date", DateTime().Null()),
		Req("validity_timeframe", Ref("ValidityTimeframe").Null()),
		Req("validity_day_of_week", Array(Integer().Range(0, 6)).Null()),
		Req("validity_hours", Ref("ValidityHours").Null()),
		Req("active", Boolean()),
		Req("additional_info", String().Null()),
		Req("metadata", Metadata()),
		Req("assets", Object(Req("qr", asset), Req("barcode", asset))),
		Req("is_referral_code", Boolean()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("holder_id", String().Null().Desc("The holding customer's ID.")),
		Req("referrer_id", String().Null()),
		Req("object", Const("voucher")),
		Req("publish", Object(
			Req("object", Const("list")),
			Req("count", Integer().Desc("Number of publications.")),
			Req("url", String().Desc("Path of the voucher's publications list.")),
		)),
		Req("redemption", Object(
			Req("quantity", Integer().Null().Desc("How many times it may be redeemed; null: unlimited.")),
			Req("redeemed_quantity", Integer()),
			Req("redeemed_points", Integer()),
			Req("object", Const("list")),
			Req("url", String().Desc("Path of the voucher's redemptions list.")),
		)),
		Req("validation_rules_assignments", V1List("data", Ref("ValidationRulesAssignment"), true)),
	))
	voucher := Ref("Voucher")
	campaignID := map[string]string{"campaignId": "The campaign's ID or name."}
	a.Add("POST /v1/campaigns/{campaignId}/vouchers", Op{Summary: "Add vouchers to a campaign", Auth: ServerAPI,
		Description: "One voucher (200, the voucher) or, with vouchers_count > 1, a background job (202).",
		PathParams:  campaignID,
		Query: []Param{Query("vouchers_count", Integer().Range(1, campaign.MaxVouchersPerRequest),
			"Number of vouchers to add (default 1).")},
		Body:     Input[campaign.AddVouchersInput](),
		Response: voucher,
		Also: []Response{{Status: http.StatusAccepted, Description: "Generation started",
			Schema: Ref("AsyncActionStarted")}}})
	a.Add("POST /v1/campaigns/{campaignId}/vouchers/{code}", Op{Summary: "Add a voucher with a code to a campaign",
		Auth: ServerAPI, PathParams: campaignID, Body: Input[campaign.AddVouchersInput](), Response: voucher})
	a.Add("GET /v1/vouchers/{code}", Op{Summary: "Get a voucher", Auth: ServerAPI,
		PathParams: map[string]string{"code": "The voucher's code or ID."}, Response: voucher})
	a.Add("GET /v1/vouchers", Op{Summary: "List vouchers", Auth: ServerAPI,
		Query: []Param{LimitParam, PageParam,
			Query("campaign", String(), "Campaign name."),
			Query("campaign_id", String(), ""),
			Query("category", String(), ""),
			Query("customer", String(), "Holder's ID or source_id."),
			Query("code", String(), ""),
			Query("ids", Array(String()), "Voucher IDs (repeated, or ids[]); at most 100."),
			Query("created_at[before]", DateTime(), ""), Query("created_at[after]", DateTime(), ""),
			Query("updated_at[before]", DateTime(), ""), Query("updated_at[after]", DateTime(), ""),
			OrderParam("created_at", "updated_at", "code")},
		Response: V1List("vouchers", voucher, true)})
}

// voucherLifecycle documents standalone vouchers, updates, deletion and
// enabling (rest/voucher_lifecycle.go).
func voucherLifecycle(a *API) {
	voucher := Ref("Voucher")
	code := map[string]string{"code": "The voucher's code or ID."}
	a.Add("POST /v1/vouchers", Op{Summary: "Create a standalone voucher", Auth: ServerAPI,
		Body: Input[campaign.CreateVoucherInput](), Response: voucher, Errors: []int{http.StatusConflict}})
	a.Add("POST /v1/vouchers/{code}", Op{Summary: "Create a standalone voucher with a code", Auth: ServerAPI,
		PathParams: map[string]string{"code": "The new voucher's code."},
		Body:       Input[campaign.CreateVoucherInput](), Response: voucher, Errors: []int{http.StatusConflict}})
	a.Add("PUT /v1/vouchers/{code}", Op{Summary: "Update a voucher", Auth: ServerAPI, PathParams: code,
		Body: Input[campaign.UpdateVoucherInput](), Response: voucher})
	a.Add("DELETE /v1/vouchers/{code}", Op{Summary: "Delete a voucher", Auth: ServerAPI, PathParams: code,
		Query:  []Param{Query("force", Boolean(), "Delete permanently (true) rather than to the bin.")},
		Status: http.StatusNoContent})
	a.Add("POST /v1/vouchers/{code}/enable", Op{Summary: "Enable a voucher", Auth: ServerAPI, PathParams: code,
		Response: voucher})
	a.Add("POST /v1/vouchers/{code}/disable", Op{Summary: "Disable a voucher", Auth: ServerAPI, PathParams: code,
		Response: voucher})
}

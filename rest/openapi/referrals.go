package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/referral"
)

// referrals documents the referral codes' holders (rest/referrals.go).
func referrals(a *API) {
	a.Tag("Referrals", "The holders of a referral code: its referrer (the customer it was published to) and its referees.")
	holder := a.Schema("RedeemableHolder", Object(
		Req("id", String().Desc("rh_…")),
		Req("created_at", DateTime()),
		Req("redeemable_id", String().Desc("The referral code's voucher ID.")),
		Req("redeemable_object", Const("voucher")),
		Req("customer_id", String()),
		Req("holder_role", Enum(referral.RoleReferrer, referral.RoleReferee)),
		Req("campaign_id", String()),
		Req("campaign_type", Const("REFERRAL_PROGRAM")),
		Req("voucher_type", String()),
		Opt("metadata", Metadata()),
		Req("object", Const("redeemable_holder")),
	))
	list := Object(Req("object", Const("list")), Req("data_ref", Const("data")), Req("data", Array(holder)),
		Req("total", Integer()), Req("has_more", Boolean()))
	body := Input[referral.HoldersInput]()
	for _, twin := range []struct{ prefix, suffix string }{
		{"/v1/referrals/{campaignId}/members/{memberId}", ""},
		{"/v1/referrals/members/{memberId}", " (by code)"},
	} {
		params := map[string]string{"memberId": "The referral code, or its voucher ID."}
		if twin.suffix == "" {
			params["campaignId"] = "The referral campaign's ID or name."
		}
		withHolder := map[string]string{"holderId": "The holder's ID (rh_…)."}
		for k, v := range params {
			withHolder[k] = v
		}
		a.Add("POST "+twin.prefix+"/holders", Op{Summary: "Add referral code holders" + twin.suffix, Auth: ServerAPI, PathParams: params,
			Body: body, Description: "The customers (upserted) become referees of the code, all or none; the code must have been " +
				"published to its referrer (400 not_published). A customer already holding it is 409 holder_assignement_duplication.",
			Response: Object(Req("holders", Array(holder))), Errors: []int{http.StatusConflict}})
		a.Add("GET "+twin.prefix+"/holders", Op{Summary: "List referral code holders" + twin.suffix, Auth: ServerAPI, PathParams: params,
			Description: "The referrer first (on the first page), then the referees by id.",
			Query: []Param{LimitParam, Query("order", Enum("id", "-id"), "The referees' order."),
				Query("starting_after_id", String(), "The page after this holder."),
				Query("filters[holder_role][conditions][$is]", Enum(referral.RoleReferrer, referral.RoleReferee), "Only the referrer or the referees.")},
			Response: list})
		a.Add("DELETE "+twin.prefix+"/holders/{holderId}", Op{Summary: "Remove referral code holder" + twin.suffix, Auth: ServerAPI,
			PathParams: withHolder, Description: "Removes a referee; the referrer cannot be removed (403).", Status: http.StatusNoContent})
	}
}

package openapi

import "github.com/promoengine/promoengine/graph/qualification"

// legacyQualifications documents the deprecated POST
// /v1/vouchers/qualification and POST /v1/campaigns/qualification
// (rest/qualifications_legacy.go, docs/qualifications.md "Legacy
// endpoints"); called by qualifications, under its tag, after vouchers
// (whose Voucher schema a qualified voucher extends).
func legacyQualifications(a *API) {
	a.Schema("LegacyQualificationRequest", Input[qualification.LegacyInput]())
	answer := func(item *Schema, what string) *Schema {
		return Object(
			Req("object", Const("list")), Req("data_ref", Const("data")), Req("data", Array(item)),
			Req("total", Integer().Desc("The number of "+what+" listed.")),
			Req("id", String().Desc("The qualification's id (qfl_…); nothing is stored under it.")),
			Req("created_at", DateTime()),
			Opt("tracking_id", String()),
		)
	}
	query := func(orders []string) []Param {
		values := make([]string, 0, 2*len(orders))
		for _, o := range orders {
			values = append(values, o, "-"+o)
		}
		return []Param{
			Query("audienceRulesOnly", Boolean(), "Check only the rules' customer conditions (segment, id, metadata)."),
			Query("limit", Integer().Range(1, qualification.MaxLimit), "At most this many (1–50, default 50)."),
			Query("order", Enum(values...), "Sort field, - first for descending (default -created_at)."),
		}
	}
	a.Add("POST /v1/vouchers/qualification", Op{Summary: "Examine voucher qualification (deprecated)", Auth: ServerAPI,
		Description: "The generic codes (standalone, or of STANDALONE campaigns; not the codes of bulk campaigns) " +
			"that are active, in date, held by nobody or by the customer, and pass their checks (validation rules " +
			"included) for the customer and the order. At most 1,000 codes are evaluated per request. Nothing is written.",
		Query: query(qualification.VoucherOrders), Body: Ref("LegacyQualificationRequest"),
		Response: answer(a.schemas["Voucher"].With(
			Req("applicable_to", FreeObject().Desc("As its validation computes it.")),
			Req("inapplicable_to", FreeObject().Desc("As its validation computes it."))), "vouchers")})
	a.Add("POST /v1/campaigns/qualification", Op{Summary: "Examine campaign qualification (deprecated)", Auth: ServerAPI,
		Description: "The active, in-date DISCOUNT_COUPONS, GIFT_VOUCHERS and REFERRAL_PROGRAM campaigns (not STANDALONE) " +
			"whose newest usable code (active, in date, held by nobody or by the customer) passes its checks for the " +
			"customer and the order. At most 1,000 campaigns are evaluated per request. Nothing is written.",
		Query: query(qualification.CampaignOrders), Body: Ref("LegacyQualificationRequest"),
		Response: answer(Ref("Campaign"), "campaigns")})
}

package openapi

import publicationpkg "github.com/promoengine/promoengine/graph/publication"

import customerpkg "github.com/promoengine/promoengine/graph/customer"

// publications documents /v1/publications (rest/publications.go,
// rest/publication_lists.go).
func publications(a *API) {
	a.Tag("Publications", "Assigning vouchers to customers.")
	customer := Input[customerpkg.CustomerInput]()
	a.Schema("PublicationRequest", Object(
		Opt("voucher", String().Desc("A specific voucher's code.")),
		Opt("campaign", OneOf(
			String().Desc("The campaign's name or ID."),
			Input[publicationpkg.PublishCampaignInput]("name"),
		).Desc("The campaign to publish from; count (1-20) asks for several vouchers.")),
		Req("customer", OneOf(String().Desc("An existing customer's ID."), customer)),
		Opt("source_id", String().Desc("The caller's own publication id: the same id gets the same publication.")),
		Opt("metadata", Metadata()),
		Opt("channel", String().Desc("Default API.")),
		Opt("join_once", Boolean().Desc("As the join_once query parameter.")),
	).Desc("Exactly one of voucher or campaign."))
	a.Schema("Publication", publicationObject(Ref("Customer")))
	publication := Ref("Publication")
	a.Add("POST /v1/publications", Op{Summary: "Create a publication", Auth: ServerAPI,
		Description: "Assigns a suitable voucher (active, not yet published) of the campaign, or the named " +
			"voucher, to the customer.",
		Query: []Param{Query("join_once", Boolean(), "The customer gets one voucher of the campaign, always the same.")},
		Body:  Ref("PublicationRequest"), BodyRequired: true,
		Response: publication, Errors: []int{409, 422}})
	a.Add("GET /v1/publications/create", Op{Summary: "Create a publication with a query", Auth: ServerAPI,
		Description: "POST /v1/publications written as a query string (for links in e-mails and landing pages): " +
			"customer[source_id]=…, campaign[name]=… or voucher=…, metadata[key]=… (values stay text). One voucher " +
			"per request.",
		Query: []Param{
			{Name: "customer", Required: true, Schema: FreeObject(), Style: "deepObject",
				Description: "customer[id] or customer[source_id], and the customer's fields to upsert."},
			{Name: "campaign", Schema: FreeObject(), Style: "deepObject", Description: "campaign[name]: the campaign to publish from."},
			Query("voucher", String(), "A specific voucher's code."),
			{Name: "metadata", Schema: FreeObject(), Style: "deepObject", Description: "The publication's metadata."},
			Query("source_id", String(), "The caller's own publication id: the same id gets the same publication."),
			Query("channel", String(), "Default API."),
			Query("join_once", Boolean(), "The customer gets one voucher of the campaign, always the same.")},
		Response: publication, Errors: []int{409, 422}})
	list := V1List("publications", publication, true)
	a.Add("GET /v1/publications", Op{Summary: "List publications", Auth: ServerAPI,
		Query: []Param{LimitParam, PageParam,
			Query("campaign", String(), "Campaign name or ID."),
			Query("customer", String(), "Customer ID or source_id."),
			Query("voucher", String(), "Voucher code."),
			Query("result", Enum("SUCCESS", "FAILURE"), "Failed publications are not stored: FAILURE finds none."),
			Query("source_id", String(), ""),
			Query("voucher_type", Enum("discount", "loyalty"), "Publications of codes of that type (DISCOUNT_VOUCHER, LOYALTY_CARD)."),
			Query("is_referral_code", Boolean(), "true: publications of referral codes only; false filters nothing."),
			{Name: "filters", Schema: FreeObject(), Style: "deepObject",
				Description: "filters[<field>][conditions][$is|$is_not|$in|$not_in|…]=… and filters[junction]=and|or over " +
					"result, customer_id, source_id, failure_code, campaign_name, voucher_type (discount, loyalty, or a voucher " +
					"type), is_referral_code (true, false); parent_object_id and related_object_id are refused (400)."},
			OrderParam("created_at", "id", "customer_id")},
		Response: list})
	a.Add("GET /v1/vouchers/{code}/publications", Op{Summary: "List a voucher's publications", Auth: ServerAPI,
		PathParams: map[string]string{"code": "The voucher's code or ID."},
		Query:      []Param{LimitParam, PageParam}, Response: list})
}

// publicationObject is the Publication object with the given customer
// schema: the full Customer on the server API, the client-side customer
// (ids only) on /client/v1.
func publicationObject(customer *Schema) *Schema {
	return Object(
		Req("id", String()),
		Req("object", Const("publication")),
		Req("created_at", DateTime()),
		Req("customer_id", String()),
		Req("tracking_id", String().Null().Desc("The customer's source_id.")),
		Req("metadata", Metadata()),
		Req("channel", String().Desc("API by default, or the caller's own channel name.")),
		Req("source_id", String().Null()),
		Req("result", Const("SUCCESS")),
		Req("customer", customer),
		Req("vouchers_id", Array(String()).Desc("IDs of the published vouchers.")),
		Opt("voucher", Ref("Voucher").Desc("The voucher, in the single form.")),
		Opt("vouchers", Array(String()).Desc("The codes, in the count form (campaign.count given).")),
	)
}

package openapi

import "github.com/promoengine/promoengine/graph/customer"

// segments documents /v1/segments (rest/segments).
func segments(a *API) {
	a.Tag("Segments", "Groups of customers: static lists, or auto-update filters.")
	segment := a.Schema("Segment", Object(
		Req("id", String()),
		Req("name", String()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("type", Enum(customer.SegmentStatic, customer.SegmentAutoUpdate)),
		Req("filter", FreeObject().Null().Desc("The filter of an auto-update segment (junction and conditions).")),
		Opt("initial_sync_status", Const("DONE").Desc("Membership is computed at once.")),
		Req("object", Const("segment")),
	))
	a.Add("POST /v1/segments", Op{Summary: "Create a segment", Auth: ServerAPI,
		Body: Input[customer.CreateSegmentInput]("name", "type"), BodyRequired: true, Response: segment})
	a.Add("GET /v1/segments", Op{Summary: "List segments", Auth: ServerAPI,
		Query: []Param{LimitParam, OrderParam("created_at"),
			Query("ids", Array(String()), "Segment IDs (repeated, or ids[])."),
			{Name: "filters", Schema: FreeObject(), Style: "deepObject",
				Description: "Filters as a deep object: filters[name][conditions][$in][]=vip."}},
		Response: V1List("data", segment, true).With(Req("segments", Array(segment).Desc("The same segments again.")))})
	a.Add("GET /v1/segments/{id}", Op{Summary: "Get a segment", Auth: ServerAPI, Response: segment})
	a.Add("DELETE /v1/segments/{id}", Op{Summary: "Delete a segment", Auth: ServerAPI, Status: 204})
}

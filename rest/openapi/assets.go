package openapi

import "github.com/promoengine/promoengine/ent/asyncaction"

// assets documents the images of voucher codes (rest/assets.go) and the
// async actions that report background jobs (rest/async_actions.go).
func assets(a *API) {
	a.Tag("Assets", "QR codes and barcodes of voucher codes (the voucher's assets). "+
		"No credentials: the id is unguessable.")
	for _, kind := range []string{"qr", "barcode"} {
		summary := "Get a voucher's QR code"
		if kind == "barcode" {
			summary = "Get a voucher's barcode"
		}
		a.Add("GET /v1/assets/"+kind+"/{id}", Op{Summary: summary, Auth: Public,
			PathParams:   map[string]string{"id": "The asset id from the voucher's assets."},
			ResponseType: "image/png", Errors: []int{422}})
	}
}

// asyncActions documents the background jobs' progress reports.
func asyncActions(a *API) {
	a.Tag("Async actions", "Background jobs: voucher generation, campaign deletion, imports.")
	action := a.Schema("AsyncAction", Object(
		Req("id", String()),
		Req("type", String().Desc("What the job does (CAMPAIGN.VOUCHERS_GENERATE, CAMPAIGN.DELETE, ...).")),
		Req("status", EnumOf(asyncaction.StatusENQUEUED, asyncaction.StatusIN_PROGRESS, asyncaction.StatusDONE,
			asyncaction.StatusFAILED)),
		Req("result", FreeObject().Null().Desc("The outcome once the job has ended (message and counts).")),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("request_id", String().Null().Desc("The request that started the job.")),
		Req("processing_time", Integer().Null().Desc("Milliseconds, once the job has ended.")),
		Req("progress", Integer().Range(0, 100).Desc("Percent done.")),
		Req("object", Const("async_action")),
	))
	a.Add("GET /v1/async-actions", Op{Summary: "List async actions", Auth: ServerAPI,
		Query: []Param{LimitParam, Query("end_date", DateTime(), "Only jobs created before it.")},
		Response: Object(
			Req("object", Const("list")),
			Req("data_ref", Const("async_actions")),
			Req("async_actions", Array(action)),
		)})
	a.Add("GET /v1/async-actions/{id}", Op{Summary: "Get an async action", Auth: ServerAPI, Response: action})
}

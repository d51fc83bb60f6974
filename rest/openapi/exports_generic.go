package openapi

import (
	"net/http"
	"strings"

	exportpkg "github.com/promoengine/promoengine/graph/export"
)

// exportsGeneric documents POST /v1/exports, GET /v1/exports and DELETE
// /v1/exports/{exportId} (rest/exports_generic.go); it follows exports in
// areas.
func exportsGeneric(a *API) {
	a.Add("POST /v1/exports", Op{Summary: "Create export", Auth: ServerAPI,
		Description: "Schedules a CSV export. exported_object: " + strings.Join(exportpkg.ExportedObjects, ", ") +
			"; this server exports order, customer, voucher and voucher_transactions (filters.voucher_id.conditions.$in naming " +
			"one voucher) and answers 400 for the others. parameters: fields, order (created_at or -created_at) and " +
			"filters ({junction, <field>: {conditions: {$in|$is|$not_in|$is_not|$after|$before: …}}}); an unknown " +
			"field or filter is a 400 listing the allowed ones.",
		Body: Object(Req("exported_object", Enum(exportpkg.ExportedObjects...)),
			Opt("parameters", FreeObject().Desc("fields, order and filters of the exported object."))),
		BodyRequired: true, Response: Ref("Export")})
	a.Add("GET /v1/exports", Op{Summary: "List exports", Auth: ServerAPI,
		Query: []Param{
			{Name: "limit", Schema: Integer(), Description: "1 to 100 (default 10)."},
			{Name: "page", Schema: Integer(), Description: "1 to 99 (default 1)."},
			{Name: "order", Schema: Enum("created_at", "-created_at", "status", "-status"), Description: "Default -created_at."},
		},
		Response: Object(Req("object", Const("list")), Req("data_ref", Const("exports")),
			Req("exports", Array(Ref("Export"))), Req("total", Integer()))})
	a.Add("DELETE /v1/exports/{id}", Op{Summary: "Delete export", Auth: ServerAPI,
		PathParams: map[string]string{"id": "The export's ID."},
		Status:     http.StatusNoContent, Errors: []int{404}})
}

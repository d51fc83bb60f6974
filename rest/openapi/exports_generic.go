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
			". voucher_transactions names one voucher (filters.voucher_id) or campaign (filters.campaign_id) with $in or " +
			"$is, optionally created_at; points_expiration one loyalty campaign (filters.campaign_id), optionally voucher_id. " +
			"parameters: fields, order (created_at or a documented order of the object, - for descending) and filters " +
			"({junction: and|or, <member>: {conditions: {$op: [values]}}}) over the documented members of the object and " +
			"metadata.<key> (docs/exports.md); an unknown field, order, filter or operator is a 400 listing the allowed ones.",
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

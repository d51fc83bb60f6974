package openapi

import (
	"strings"

	"github.com/promoengine/promoengine/ent/export"
	exportpkg "github.com/promoengine/promoengine/graph/export"
)

// exports documents exports of voucher transactions and their downloads
// (rest/exports.go).
func exports(a *API) {
	a.Tag("Exports", "CSV exports of voucher transactions, made in the background.")
	exp := a.Schema("Export", Object(
		Req("id", String()),
		Req("object", Const("export")),
		Req("created_at", DateTime()),
		Req("status", EnumOf(export.StatusSCHEDULED, export.StatusIN_PROGRESS, export.StatusDONE, export.StatusERROR)),
		Req("channel", String().Desc("API, or WEBSITE when started from the dashboard.")),
		Req("exported_object", Enum("voucher_transactions", "order", "customer", "voucher", "points_expiration", "redemption", "publication")),
		Req("parameters", Object(
			Opt("order", String().Desc("As sent; left out when the request sent none (the file is newest first). "+
				"created_at, or a documented order of the exported object: vouchers updated_at, code; redemptions id, "+
				"voucher_code, tracking_id, customer_id; customers name, id, email, source_id, updated_at; publications id, "+
				"voucher_code, tracking_id, customer_id, channel; orders updated_at, status; points expirations expires_at "+
				"(only); each with - for descending.")),
			Opt("fields", Array(String()).Desc("As sent; left out when the request sent none (the file has every field "+
				"of a transactions export; id, source_id and status of an orders export). Transactions: "+
				strings.Join(exportpkg.TransactionExportFields, ", ")+"; orders: "+
				strings.Join(exportpkg.OrderExportFields, ", ")+", metadata.<key>; customers: "+
				strings.Join(exportpkg.CustomerExportFields, ", ")+", metadata.<key>; vouchers: "+
				strings.Join(exportpkg.VoucherExportFields, ", ")+", metadata.<key>; redemptions: "+
				strings.Join(exportpkg.RedemptionExportFields, ", ")+", metadata.<key>; publications: "+
				strings.Join(exportpkg.PublicationExportFields, ", ")+", metadata.<key>.")),
			Opt("filters", FreeObject().Desc("A transactions export's voucher_id (or campaign_id) $in filter, with created_at "+
				"when sent; a points-expiration export's campaign_id, with voucher_id when sent; the other exports' filters as "+
				"sent, in the documents' shape (junction in lower case, each condition's value an array, booleans as text).")),
		)),
		Req("result", OneOf(
			Object(Req("url", String().Desc("Where to download the CSV (signed, expiring; no credentials)."))),
			Object(Req("error", Object(Req("message", String())))),
		).Null().Desc("null until the file is ready or the export failed.")),
		Req("user_id", String().Null()),
	))
	a.Add("POST /v1/vouchers/{code}/transactions/export", Op{Summary: "Export a voucher's transactions",
		Auth: ServerAPI, PathParams: map[string]string{"code": "The voucher's code or ID."},
		Body:     Object(Opt("parameters", Input[exportpkg.ExportParametersInput]())),
		Response: exp})
	a.Add("GET /v1/exports/{id}", Op{Summary: "Get an export", Auth: ServerAPI, Response: exp})
	a.Add("GET /v1/exports/{id}/download", Op{Summary: "Download an export", Auth: Public,
		Description:  "The CSV file. No credentials: the signed, expiring token of result.url is one.",
		Query:        []Param{{Name: "token", Required: true, Schema: String(), Description: "From result.url."}},
		ResponseType: "text/csv"})
}

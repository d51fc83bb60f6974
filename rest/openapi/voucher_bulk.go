package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/campaign"
)

// voucherBulk documents POST /v1/vouchers/import and /v1/vouchers/bulk/async
// (rest/voucher_import.go); it follows voucherLifecycle in areas.
func voucherBulk(a *API) {
	a.Add("POST /v1/vouchers/import", Op{Summary: "Import vouchers", Auth: ServerAPI,
		Description: "Standalone vouchers with their codes, imported by an async action (VOUCHERS.IMPORT).",
		Body:        Array(Input[campaign.CreateVoucherInput]("code")), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
	a.Add("POST /v1/vouchers/bulk/async", Op{Summary: "Update vouchers' metadata in bulk", Auth: ServerAPI,
		Description: "Sets metadata keys of each code by an async action (VOUCHERS.BULK_UPDATE).",
		Body:        Array(Input[campaign.VoucherMetadataUpdate]("code", "metadata")), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{http.StatusRequestEntityTooLarge}})
}

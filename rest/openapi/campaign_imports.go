package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/campaign"
)

// campaignImports documents the imports of existing codes into a campaign
// (rest/campaign_imports.go, docs/imports.md); it follows voucherBulk in areas.
func campaignImports(a *API) {
	id := map[string]string{"campaignId": "The campaign's ID or name."}
	a.Add("POST /v1/campaigns/{campaignId}/import", Op{Summary: "Import vouchers to a campaign", Auth: ServerAPI,
		Description: "Existing codes become vouchers of the campaign (its discount, dates and rules), by an async action " +
			"(CAMPAIGN.VOUCHERS_IMPORT); a code that exists or a bad value is reported per code in the result.",
		PathParams: id, Body: Array(Input[campaign.CampaignImportItem]("code")), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: []int{404, http.StatusRequestEntityTooLarge}})
	a.Add("POST /v1/campaigns/{campaignId}/importCSV", Op{Summary: "Import vouchers to a campaign by CSV", Auth: ServerAPI,
		Description: "An async action (CAMPAIGN.VOUCHERS_IMPORT_CSV). Header row: Code (required), Category, Active, " +
			"Additional Info, Redemption Limit, Redeemed Quantity, Gift Amount, Redeemed Amount, Loyalty Points (case, " +
			"spaces and underscores do not matter); any other column is a metadata key. The file is streamed (up to 512 MiB, " +
			"2,000,000 rows; 10 MiB with an Idempotency-Key); bad rows are reported by line in the result.",
		PathParams: id, Form: Object(Req("file", String().Desc("The CSV file (multipart upload)."))), FormType: "multipart/form-data",
		Response: Ref("AsyncActionStarted"), Errors: []int{404, http.StatusRequestEntityTooLarge}})
}

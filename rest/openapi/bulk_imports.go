package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
)

// bulkImports documents the bulk imports and updates of customers and
// vouchers (rest/bulk_imports.go, docs/imports.md); it follows
// campaignImports in areas.
func bulkImports(a *API) {
	file := Object(Req("file", String().Desc("The CSV file (multipart upload).")))
	tooLarge := []int{http.StatusRequestEntityTooLarge}
	a.Add("POST /v1/customers/importCSV", Op{Summary: "Import and update customers using CSV", Auth: ServerAPI,
		Description: "An async action (CUSTOMERS.IMPORT_CSV). Header row: Id, Name, Email, Phone, Birthdate, Source_id, " +
			"Description, Address_line_1, Address_line_2, Address_Postal_Code, Address_City, Address_State, Address_Country " +
			"(case does not matter); any other column is a metadata key. A row with a known source_id updates that " +
			"customer. Streamed (up to 512 MiB, 1,000,000 rows); bad rows are reported by row in the result's failed.",
		Form: file, FormType: "multipart/form-data", Status: http.StatusAccepted,
		Response: Ref("AsyncActionStarted"), Errors: tooLarge})
	a.Add("POST /v1/customers/bulk/async", Op{Summary: "Update customers in bulk", Auth: ServerAPI,
		Description: "Upserts each customer by source_id by an async action (CUSTOMERS.BULK_UPDATE); a bad item is " +
			"reported in the result's errors, the others are written.",
		Body: Array(Input[customer.CustomerInput]("source_id").Without("id")), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: tooLarge})
	a.Add("POST /v1/customers/metadata/async", Op{Summary: "Set one metadata on many customers", Auth: ServerAPI,
		Description: "Merges the metadata into every listed customer by an async action (CUSTOMERS.METADATA_UPDATE); " +
			"an unknown source_id becomes a customer.",
		Body: Input[customer.CustomersMetadataInput]("source_ids", "metadata"), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: tooLarge})
	a.Add("POST /v1/vouchers/importCSV", Op{Summary: "Import vouchers using CSV", Auth: ServerAPI,
		Description: "An async action (VOUCHERS.IMPORT_CSV) of standalone vouchers. Header row: Code (required), Voucher " +
			"Type, Value, Discount Type, Category, Start Date, Expiration Date, Redemption Limit, Redeemed Quantity, " +
			"Redeemed Amount, Active, Additional Info (case, spaces and underscores do not matter); any other column is a " +
			"metadata key. A code that exists is updated. At most 10 MB and 100,000 rows; bad rows are reported by row.",
		Form: file, FormType: "multipart/form-data", Status: http.StatusAccepted,
		Response: Ref("AsyncActionStarted"), Errors: tooLarge})
	a.Add("POST /v1/vouchers/metadata/async", Op{Summary: "Set one metadata on many vouchers", Auth: ServerAPI,
		Description: "Merges the metadata into every listed code by an async action (VOUCHERS.METADATA_UPDATE); unknown " +
			"codes are reported in the result's errors (no upserts).",
		Body: Input[campaign.VouchersMetadataInput]("codes", "metadata"), BodyRequired: true,
		Status: http.StatusAccepted, Response: Ref("AsyncActionStarted"), Errors: tooLarge})
}

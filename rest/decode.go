package rest

// bodyLimit is the size limit of a body of the route: maxBodyBytes, or
// maxBulkBodyBytes for the bulk voucher routes.
func bodyLimit(route string) int64 {
	if bulkBodyRoutes[route] {
		return maxBulkBodyBytes
	}
	return maxBodyBytes
}

// bulkBodyRoutes are the routes whose bodies may be maxBulkBodyBytes long
// (see bodyLimit).
var bulkBodyRoutes = map[string]bool{"/v1/vouchers/import": true, "/v1/vouchers/bulk/async": true,
	"/v1/products/bulk/async": true, "/v1/products/metadata/async": true,
	"/v1/products/importCSV": true, "/v1/skus/importCSV": true,
	// With an Idempotency-Key the body is read whole to compare retries:
	// such an upload is bounded like the other bulk bodies.
	"/v1/campaigns/:campaignId/import": true, "/v1/campaigns/:campaignId/importCSV": true,
	"/v2/loyalties/programs/:programId/members/batch": true}

package rest

// bodyLimit is the size limit of a body of the route: maxBodyBytes, or
// maxBulkBodyBytes for the bulk voucher routes.
func bodyLimit(route string) int64 {
	if bulkBodyRoutes[route] {
		return maxBulkBodyBytes
	}
	return maxBodyBytes
}

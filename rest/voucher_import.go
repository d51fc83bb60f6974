package rest

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
)

// bulkBodyRoutes are the routes whose bodies may be maxBulkBodyBytes long
// (see bodyLimit).
var bulkBodyRoutes = map[string]bool{"/v1/vouchers/import": true, "/v1/vouchers/bulk/async": true,
	"/v1/products/bulk/async": true, "/v1/products/metadata/async": true,
	"/v1/products/importCSV": true, "/v1/skus/importCSV": true,
	// With an Idempotency-Key the body is read whole to compare retries:
	// such an upload is bounded like the other bulk bodies.
	"/v1/campaigns/:campaignId/import": true, "/v1/campaigns/:campaignId/importCSV": true,
	"/v2/loyalties/programs/:programId/members/batch": true}

// importVouchers serves POST /v1/vouchers/import: 202 with the async
// action (VOUCHERS.IMPORT) that imports the array of vouchers.
func (h voucherHandlers) importVouchers(c *gin.Context) {
	var items []*campaign.CreateVoucherInput
	if err := decodeBulkBody(c, &items); err != nil {
		renderError(c, err)
		return
	}
	h.scheduled(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportVouchers(ctx, items)
	})
}

// bulkUpdate serves POST /v1/vouchers/bulk/async: 202 with the async
// action (VOUCHERS.BULK_UPDATE) that sets each code's metadata keys.
func (h voucherHandlers) bulkUpdate(c *gin.Context) {
	var items []*campaign.VoucherMetadataUpdate
	if err := decodeBulkBody(c, &items); err != nil {
		renderError(c, err)
		return
	}
	h.scheduled(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().UpdateVouchersInBulk(ctx, items)
	})
}

// scheduled runs a mutation that schedules a job and answers 202 with its ID.
func (h voucherHandlers) scheduled(c *gin.Context, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	accepted(c, schedule)
}

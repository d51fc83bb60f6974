package rest

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
)

// The bulk imports and updates of customers and vouchers (docs/imports.md):
// each answers 202 {async_action_id}; poll GET /v1/async-actions/{id}.

// maxVoucherCSVBytes bounds a voucher CSV (the reference takes up to 10 MB).
const maxVoucherCSVBytes = 10 << 20

func init() {
	for _, route := range []string{"/v1/customers/bulk/async", "/v1/customers/metadata/async",
		"/v1/customers/importCSV", "/v1/vouchers/importCSV", "/v1/vouchers/metadata/async"} {
		bulkBodyRoutes[route] = true
	}
}

// registerBulkImports mounts the routes.
func registerBulkImports(v1 *gin.RouterGroup, auth gin.HandlerFunc, customers customerHandlers, vouchers voucherHandlers) {
	v1.POST("/customers/importCSV", auth, customers.importCSV)
	v1.POST("/customers/bulk/async", auth, customers.bulkUpdate)
	v1.POST("/customers/metadata/async", auth, customers.metadataUpdate)
	v1.POST("/vouchers/importCSV", auth, vouchers.importCSV)
	v1.POST("/vouchers/metadata/async", auth, vouchers.metadataUpdate)
}

// importCSV serves POST /v1/customers/importCSV (CUSTOMERS.IMPORT_CSV).
func (h customerHandlers) importCSV(c *gin.Context) {
	streamCSV(c, maxUploadBytes, http.StatusAccepted, func(ctx context.Context, file graphql.Upload) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportCustomersCSV(ctx, file)
	})
}

// bulkUpdate serves POST /v1/customers/bulk/async (CUSTOMERS.BULK_UPDATE).
func (h customerHandlers) bulkUpdate(c *gin.Context) {
	var items []*customer.CustomerInput
	if err := decodeBulkBody(c, &items); err != nil {
		renderError(c, err)
		return
	}
	accepted(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().UpdateCustomersInBulk(ctx, items)
	})
}

// metadataUpdate serves POST /v1/customers/metadata/async
// (CUSTOMERS.METADATA_UPDATE).
func (h customerHandlers) metadataUpdate(c *gin.Context) {
	var in customer.CustomersMetadataInput
	if err := decodeBulkObject(c, &in); err != nil {
		renderError(c, err)
		return
	}
	accepted(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().UpdateCustomersMetadataInBulk(ctx, in)
	})
}

// importCSV serves POST /v1/vouchers/importCSV (VOUCHERS.IMPORT_CSV).
func (h voucherHandlers) importCSV(c *gin.Context) {
	streamCSV(c, maxVoucherCSVBytes, http.StatusAccepted, func(ctx context.Context, file graphql.Upload) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportVouchersCSV(ctx, file)
	})
}

// metadataUpdate serves POST /v1/vouchers/metadata/async
// (VOUCHERS.METADATA_UPDATE).
func (h voucherHandlers) metadataUpdate(c *gin.Context) {
	var in campaign.VouchersMetadataInput
	if err := decodeBulkObject(c, &in); err != nil {
		renderError(c, err)
		return
	}
	accepted(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().UpdateVouchersMetadataInBulk(ctx, in)
	})
}

// decodeBulkObject decodes a JSON object body of up to maxBulkBodyBytes.
func decodeBulkObject(c *gin.Context, dst any) error {
	body, err := readBody(c, maxBulkBodyBytes)
	if err != nil {
		return err
	}
	return decodeJSON(body, dst)
}

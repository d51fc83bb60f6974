package rest

import (
	"context"

	"github.com/gin-gonic/gin"
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/rest/promotions"
	"github.com/promoengine/promoengine/rest/vouchers"
)

// Transitional: renderings of areas moved out of rest under the names the
// files of other owners still in rest call (rest/redemption_json.go shows
// a redemption's promotion tier), so that those files need no edit. Each
// goes when its last caller switches to the area's package
// (docs/architecture.md, "Splitting rest").

// tierBody is promotions.TierBody.
type tierBody = promotions.TierBody

// tierJSON is promotions.TierJSON.
func tierJSON(t *ent.PromotionTier, d *promotion.TierDetails) tierBody {
	return promotions.TierJSON(t, d)
}

// voucherHandlers are the vouchers' renderings (rest/vouchers.Renderer)
// under rest's old receiver: publications, redemptions, customers'
// redeemables, exports, bulk imports, the client API, legacy
// qualifications, async actions and webhook payloads still in rest call
// these methods.
type voucherHandlers struct {
	root      *graph.Resolver
	publicURL string
}

// voucherBody is vouchers.Body.
type voucherBody = vouchers.Body

// renderer is the vouchers area's Renderer of h.
func (h voucherHandlers) renderer() vouchers.Renderer {
	return vouchers.Renderer{Root: h.root, PublicURL: h.publicURL}
}

// voucherJSON is vouchers.Renderer.JSON.
func (h voucherHandlers) voucherJSON(c *gin.Context, v *ent.Voucher) voucherBody {
	return h.renderer().JSON(c, v)
}

// baseURL is vouchers.Renderer.BaseURL.
func (h voucherHandlers) baseURL(c *gin.Context) string { return h.renderer().BaseURL(c) }

// listWith is vouchers.Renderer.List.
func (h voucherHandlers) listWith(c *gin.Context, in campaign.VoucherListInput) {
	h.renderer().List(c, in)
}

// scheduled runs a mutation that schedules a job and answers 202 with its ID.
func (h voucherHandlers) scheduled(c *gin.Context, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	accepted(c, schedule)
}

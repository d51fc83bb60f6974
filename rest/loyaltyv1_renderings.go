package rest

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/rest/loyaltyv1"
)

// loyaltyV1Renderings are the answers the v1 loyalty area (rest/loyaltyv1)
// gives in the shapes of areas still in rest: members as vouchers (with
// the configured public URL), exports and reward redemptions.
func loyaltyV1Renderings(root *graph.Resolver, vouchers voucherHandlers, exports exportHandlers) loyaltyv1.Renderings {
	redemptions := redemptionHandlers{root: root, vouchers: vouchers}
	return loyaltyv1.Renderings{
		Voucher:    func(c *gin.Context, v *ent.Voucher) any { return vouchers.voucherJSON(c, v) },
		Redemption: func(c *gin.Context, r *ent.Redemption) any { return redemptions.redemptionJSON(c, r) },
		Export: func(c *gin.Context, start func(context.Context, *exportpkg.ExportParametersInput) (*ent.Export, error)) {
			exports.startExport(c, start)
		},
	}
}

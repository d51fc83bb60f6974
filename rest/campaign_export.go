package rest

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	exportpkg "github.com/promoengine/promoengine/graph/export"
)

// campaignExport serves POST /v1/campaigns/{campaignId}/transactions/export:
// the voucher transactions of all the campaign's vouchers (an export of
// voucher_transactions filtered by campaign_id).
func (h exportHandlers) campaignExport(c *gin.Context) {
	h.startExport(c, func(ctx context.Context, p *exportpkg.ExportParametersInput) (*ent.Export, error) {
		return h.vouchers.root.Mutation().ExportCampaignTransactions(ctx, c.Param("campaignId"), p)
	})
}

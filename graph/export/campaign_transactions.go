package export

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
)

// CampaignTransactionsByRef serves POST /v1/campaigns/{campaignId}/transactions/export
// and exportCampaignTransactions: the transactions of all the vouchers of
// a campaign named by id or name (404 when unknown), as CampaignTransactions.
func CampaignTransactionsByRef(ctx context.Context, idOrName string, in *ExportParametersInput) (*ent.Export, error) {
	cmp, err := campaign.ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	return CampaignTransactions(ctx, cmp.ID, in)
}

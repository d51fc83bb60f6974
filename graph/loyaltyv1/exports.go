package loyaltyv1

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/export"
)

// ExportProgramTransactions schedules a CSV export of the transactions of
// all a program's cards (POST /v1/loyalties/{campaignId}/transactions/export).
func ExportProgramTransactions(ctx context.Context, programIDOrName string, in *export.ExportParametersInput) (*ent.Export, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	return export.CampaignTransactions(ctx, cmp.ID, in)
}

// ExportPointsExpiration schedules a CSV export of a program's expiry
// buckets, ACTIVE and EXPIRED (POST /v1/loyalties/{campaignId}/points-expiration/export).
func ExportPointsExpiration(ctx context.Context, programIDOrName string, in *export.ExportParametersInput) (*ent.Export, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	return export.PointsExpiration(ctx, cmp.ID, in)
}

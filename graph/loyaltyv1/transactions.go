package loyaltyv1

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/export"
)

// TransactionListInput is the query of a transactions list: limit 1-100
// (10), order id / -id (default; created_at / -created_at too) and the
// last transaction of the previous page.
type TransactionListInput struct {
	Limit           *int    `json:"limit"`
	Order           *string `json:"order"`
	StartingAfterID *string `json:"starting_after_id"`
}

// MemberTransactions pages a member's points transactions (GET
// /v1/loyalties[/{campaignId}]/members/{memberId}/transactions).
func MemberTransactions(ctx context.Context, programIDOrName *string, code string, in *TransactionListInput) (*campaign.VoucherTransactionList, error) {
	v, err := Member(ctx, programIDOrName, code)
	if err != nil {
		return nil, err
	}
	if in == nil {
		in = &TransactionListInput{}
	}
	return campaign.PageTransactions(ctx, vouchertransaction.VoucherID(v.ID), in.Limit, in.Order, in.StartingAfterID)
}

// ProgramTransactions pages the transactions of all a program's cards
// (GET /v1/loyalties/{campaignId}/transactions).
func ProgramTransactions(ctx context.Context, programIDOrName string, in *TransactionListInput) (*campaign.VoucherTransactionList, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	if in == nil {
		in = &TransactionListInput{}
	}
	return campaign.PageTransactions(ctx, vouchertransaction.CampaignID(cmp.ID), in.Limit, in.Order, in.StartingAfterID)
}

// ExportMemberTransactions schedules a CSV export of a member's
// transactions (POST …/members/{memberId}/transactions/export): the
// voucher transactions export of graph/export, run by the job worker.
func ExportMemberTransactions(ctx context.Context, programIDOrName *string, code string, in *export.ExportParametersInput) (*ent.Export, error) {
	v, err := Member(ctx, programIDOrName, code)
	if err != nil {
		return nil, err
	}
	return export.VoucherTransactions(ctx, v.ID, in)
}

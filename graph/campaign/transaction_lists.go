package campaign

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// VoucherTransactionList is a page of a voucher's transactions and whether
// more follow.
type VoucherTransactionList struct {
	Data    []*ent.VoucherTransaction `json:"data"`
	HasMore bool                      `json:"has_more"`
}

// ListVoucherTransactions is GET /v1/vouchers/{code}/transactions: limit
// 1-100 (10), order created_at or -created_at (default), and
// startingAfterID, the last transaction of the previous page. Transaction
// IDs grow with time, so the ID orders the list.
func ListVoucherTransactions(ctx context.Context, codeOrID string, limit *int, order *string, startingAfterID *string) (*VoucherTransactionList, error) {
	v, err := VoucherByCodeOrID(ctx, codeOrID)
	if err != nil {
		return nil, err
	}
	return PageTransactions(ctx, vouchertransaction.VoucherID(v.ID), limit, order, startingAfterID)
}

// ListCampaignTransactions is GET /v1/campaigns/{campaignId}/transactions:
// the transactions of all the campaign's vouchers, paged as a voucher's.
func ListCampaignTransactions(ctx context.Context, idOrName string, limit *int, order *string, startingAfterID *string) (*VoucherTransactionList, error) {
	cmp, err := ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	return PageTransactions(ctx, vouchertransaction.CampaignID(cmp.ID), limit, order, startingAfterID)
}

// PageTransactions pages the transactions matching which, by ID (IDs grow
// with time): order created_at or id ascending, -created_at or -id
// (default) descending, after startingAfterID.
func PageTransactions(ctx context.Context, which predicate.VoucherTransaction, limit *int, order *string, startingAfterID *string) (*VoucherTransactionList, error) {
	n, _, err := page.Offset(limit, nil)
	if err != nil {
		return nil, err
	}
	asc := false
	if order != nil {
		switch *order {
		case "created_at", "id":
			asc = true
		case "-created_at", "-id":
		default:
			return nil, apperr.InvalidQueryParams("Query parameter order must be created_at, -created_at, id or -id")
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.VoucherTransaction.Query().Where(which)
	by := ent.Desc(vouchertransaction.FieldID)
	if asc {
		by = ent.Asc(vouchertransaction.FieldID)
	}
	if after := startingAfterID; after != nil {
		if asc {
			q.Where(vouchertransaction.IDGT(*after))
		} else {
			q.Where(vouchertransaction.IDLT(*after))
		}
	}
	data, err := q.Order(by).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing voucher transactions: %w", err)
	}
	out := &VoucherTransactionList{Data: data, HasMore: len(data) > n}
	if out.HasMore {
		out.Data = data[:n]
	}
	return out, nil
}

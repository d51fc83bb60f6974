package vouchers

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// TransactionBody is the real service's voucher transaction object.
type TransactionBody struct {
	ID                   string            `json:"id"`
	SourceID             *string           `json:"source_id"`
	VoucherID            string            `json:"voucher_id"`
	CampaignID           *string           `json:"campaign_id"`
	Source               string            `json:"source"`
	Reason               *string           `json:"reason"`
	Type                 string            `json:"type"`
	Details              map[string]any    `json:"details"`
	RelatedTransactionID *string           `json:"related_transaction_id"`
	CreatedAt            httpkit.Timestamp `json:"created_at"`
}

// TransactionJSON renders a voucher transaction (also in webhook payloads).
func TransactionJSON(t *ent.VoucherTransaction) TransactionBody {
	return TransactionBody{ID: t.ID, SourceID: t.SourceID, VoucherID: t.VoucherID, CampaignID: t.CampaignID,
		Source: t.Source, Reason: t.Reason, Type: t.Type.String(), Details: httpkit.OrEmpty(t.Details),
		RelatedTransactionID: t.RelatedTransactionID, CreatedAt: httpkit.Timestamp(t.CreatedAt)}
}

// transactionPage serves GET /v1/vouchers/{code}/transactions and
// GET /v1/campaigns/{campaignId}/transactions (param names the path's
// voucher or campaign): limit, order (created_at | -created_at),
// starting_after_id; list is called for the subject and the answer is
// the cursor list.
func transactionPage(param string,
	list func(ctx context.Context, idOrCode string, limit *int, order *string, after *string) (*campaign.VoucherTransactionList, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := httpkit.NotSupported(c.Request.URL.Query(), "the transaction list", "filters"); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		limit, err := httpkit.QueryInt(c, "limit")
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		var order, after *string
		httpkit.QueryStrings(c, map[string]**string{"order": &order, "starting_after_id": &after})
		res, err := list(c.Request.Context(), c.Param(param), limit, order, after)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		RenderTransactions(c, res)
	}
}

// RenderTransactions answers with the cursor list of transactions.
func RenderTransactions(c *gin.Context, res *campaign.VoucherTransactionList) {
	out := make([]TransactionBody, len(res.Data))
	for i, t := range res.Data {
		out[i] = TransactionJSON(t)
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": out, "has_more": res.HasMore}
	if res.HasMore {
		body["more_starting_after"] = out[len(out)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

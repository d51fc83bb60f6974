package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
)

// voucherTransactionBody is the real service's voucher transaction object.
type voucherTransactionBody struct {
	ID                   string         `json:"id"`
	SourceID             *string        `json:"source_id"`
	VoucherID            string         `json:"voucher_id"`
	CampaignID           *string        `json:"campaign_id"`
	Source               string         `json:"source"`
	Reason               *string        `json:"reason"`
	Type                 string         `json:"type"`
	Details              map[string]any `json:"details"`
	RelatedTransactionID *string        `json:"related_transaction_id"`
	CreatedAt            timestamp      `json:"created_at"`
}

func voucherTransactionJSON(t *ent.VoucherTransaction) voucherTransactionBody {
	return voucherTransactionBody{ID: t.ID, SourceID: t.SourceID, VoucherID: t.VoucherID, CampaignID: t.CampaignID,
		Source: t.Source, Reason: t.Reason, Type: t.Type.String(), Details: orEmpty(t.Details),
		RelatedTransactionID: t.RelatedTransactionID, CreatedAt: timestamp(t.CreatedAt)}
}

// transactions serves GET /v1/vouchers/{code}/transactions: limit, order
// (created_at | -created_at), starting_after_id.
func (h voucherHandlers) transactions(c *gin.Context) {
	h.transactionPage(c, h.root.Query().VoucherTransactionList)
}

// campaignTransactions serves GET /v1/campaigns/{campaignId}/transactions,
// paged the same way.
func (h voucherHandlers) campaignTransactions(c *gin.Context) {
	h.transactionPage(c, h.root.Query().CampaignTransactionList)
}

// transactionPage reads the paging parameters, calls list for the path's
// voucher or campaign and answers with the v1 list.
func (h voucherHandlers) transactionPage(c *gin.Context,
	list func(ctx context.Context, idOrCode string, limit *int, order *string, after *string) (*campaign.VoucherTransactionList, error)) {
	limit, err := queryInt(c, "limit")
	if err != nil {
		renderError(c, err)
		return
	}
	var order, after *string
	queryStrings(c, map[string]**string{"order": &order, "starting_after_id": &after})
	subject := c.Param("code")
	if subject == "" {
		subject = c.Param("campaignId")
	}
	res, err := list(c.Request.Context(), subject, limit, order, after)
	if err != nil {
		renderError(c, err)
		return
	}
	renderTransactionPage(c, res)
}

// renderTransactionPage answers with the cursor list of transactions.
func renderTransactionPage(c *gin.Context, res *campaign.VoucherTransactionList) {
	out := make([]voucherTransactionBody, len(res.Data))
	for i, t := range res.Data {
		out[i] = voucherTransactionJSON(t)
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": out, "has_more": res.HasMore}
	if res.HasMore {
		body["more_starting_after"] = out[len(out)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

package rest

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/campaign"
)

// list serves GET /v1/vouchers: page/limit, the filters campaign,
// campaign_id, category, customer, code, ids, created_at[before|after],
// updated_at[before|after], and order.
func (h voucherHandlers) list(c *gin.Context) {
	in, err := voucherListQuery(c)
	if err != nil {
		renderError(c, err)
		return
	}
	h.listWith(c, in)
}

// listWith answers with the page of vouchers in selects, in the v1 list
// envelope (one VoucherList resolver call). Handlers that restrict the list
// (the client API, a fixed campaign or holder) read the query with
// voucherListQuery, narrow in and call it; ranges and order are checked by
// the use case.
func (h voucherHandlers) listWith(c *gin.Context, in campaign.VoucherListInput) {
	res, err := h.root.Query().VoucherList(c.Request.Context(), &in)
	if err != nil {
		renderError(c, err)
		return
	}
	vouchers := make([]voucherBody, len(res.Data))
	for i, v := range res.Data {
		vouchers[i] = h.voucherJSON(c, v)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "vouchers", "vouchers": vouchers, "total": res.Total})
}

// voucherListQuery reads GET /v1/vouchers' query parameters; ids may come
// repeated (ids=a&ids=b) or in bracket form (ids[]=a).
func voucherListQuery(c *gin.Context) (campaign.VoucherListInput, error) {
	var in campaign.VoucherListInput
	var err error
	if in.Limit, in.Page, err = limitAndPage(c); err != nil {
		return in, err
	}
	queryStrings(c, map[string]**string{"campaign": &in.Campaign, "campaign_id": &in.CampaignID,
		"category": &in.Category, "customer": &in.Customer, "code": &in.Code, "order": &in.Order})
	for _, id := range append(c.QueryArray("ids"), c.QueryArray("ids[]")...) {
		if id != "" {
			in.IDs = append(in.IDs, id)
		}
	}
	err = queryTimes(c, map[string]**time.Time{"created_at[before]": &in.CreatedBefore, "created_at[after]": &in.CreatedAfter,
		"updated_at[before]": &in.UpdatedBefore, "updated_at[after]": &in.UpdatedAfter})
	return in, err
}

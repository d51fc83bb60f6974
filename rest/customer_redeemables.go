package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/customer"
)

// redeemables serves GET /v1/customers/{customerId}/redeemables (SDK:
// customers.listRedeemables): limit, order (id, -id), starting_after_id
// and filters.
func (h customerHandlers) redeemables(c *gin.Context) {
	in := &customer.WalletInput{}
	var err error
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		renderError(c, err)
		return
	}
	queryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID})
	if err := walletFilters(c, in); err != nil {
		renderError(c, err)
		return
	}
	w, err := h.root.Query().CustomerRedeemables(c.Request.Context(), c.Param("customerId"), in)
	if err != nil {
		renderError(c, err)
		return
	}
	data := make([]gin.H, len(w.Data))
	vouchers := voucherHandlers{root: h.root}
	for i, e := range w.Data {
		v := e.Voucher
		var campaignType any
		if cmp := v.Edges.Campaign; cmp != nil {
			campaignType = cmp.CampaignType
		}
		data[i] = gin.H{"id": e.ID, "created_at": timestamp(e.CreatedAt), "redeemable_id": v.ID,
			"redeemable_object": "voucher", "customer_id": w.CustomerID, "holder_role": e.HolderRole,
			"campaign_id": v.CampaignID, "campaign_type": campaignType, "voucher_type": v.Type, "object": "customer_redeemable",
			"redeemable": gin.H{"type": "voucher", "voucher": vouchers.voucherJSON(c, v), "status": e.Status}}
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": data, "total": w.Total, "has_more": w.HasMore}
	if w.HasMore && len(w.Data) > 0 {
		body["more_starting_after"] = w.Data[len(w.Data)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

// walletFilters reads the query's filters into in.
func walletFilters(c *gin.Context, in *customer.WalletInput) error {
	filters, or, err := conditionFilters(c.Request.URL.Query())
	if err != nil {
		return err
	}
	in.Or = or
	for _, f := range filters {
		in.Filters = append(in.Filters, customer.WalletFilter{Field: f.Field, Op: f.Op, Values: f.Values})
	}
	return nil
}

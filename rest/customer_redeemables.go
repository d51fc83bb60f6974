package rest

import (
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
)

// walletFilterKey parses filters[field][conditions][$op] (with an
// optional [] or [n]) and filters[junction].
var walletFilterKey = regexp.MustCompile(`^filters\[([a-z_]+)\](?:\[conditions\]\[(\$[a-z_]+)\])?(?:\[(\d*)\])?$`)

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
	q := c.Request.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		if strings.HasPrefix(k, "filters") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	byKey := map[[2]string]int{}
	for _, key := range keys {
		m := walletFilterKey.FindStringSubmatch(key)
		if m == nil {
			return apperr.InvalidQueryParams("Unknown filter parameter %s", key)
		}
		if m[1] == "junction" && m[2] == "" {
			switch strings.ToUpper(q.Get(key)) {
			case "AND":
			case "OR":
				in.Or = true
			default:
				return apperr.InvalidQueryParams("Query parameter filters[junction] must be AND or OR")
			}
			continue
		}
		if m[2] == "" {
			return apperr.InvalidQueryParams("Filter parameter %s must name a condition, e.g. filters[%s][conditions][$is]", key, m[1])
		}
		var values []string
		for _, v := range q[key] {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					values = append(values, part)
				}
			}
		}
		k := [2]string{m[1], m[2]}
		if i, ok := byKey[k]; ok {
			in.Filters[i].Values = append(in.Filters[i].Values, values...)
			continue
		}
		byKey[k] = len(in.Filters)
		in.Filters = append(in.Filters, customer.WalletFilter{Field: m[1], Op: m[2], Values: values})
	}
	return nil
}

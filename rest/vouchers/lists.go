package vouchers

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// list serves GET /v1/vouchers: page/limit, the filters campaign,
// campaign_id, category, customer, code, ids, created_at[before|after],
// updated_at[before|after], and order.
func (r Renderer) list(c *gin.Context) {
	in, err := ListQuery(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	r.List(c, in)
}

// List answers with the page of vouchers in selects, in the v1 list
// envelope (one VoucherList resolver call). Handlers that restrict the list
// (the client API, a fixed campaign or holder) read the query with
// ListQuery, narrow in and call it; ranges and order are checked by the
// use case.
func (r Renderer) List(c *gin.Context, in campaign.VoucherListInput) {
	res, err := r.Root.Query().VoucherList(c.Request.Context(), &in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	vouchers := make([]Body, len(res.Data))
	for i, v := range res.Data {
		vouchers[i] = r.JSON(c, v)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "vouchers", "vouchers": vouchers, "total": res.Total})
}

// ListQuery reads GET /v1/vouchers' query parameters; ids may come
// repeated (ids=a&ids=b) or in bracket form (ids[]=a).
func ListQuery(c *gin.Context) (campaign.VoucherListInput, error) {
	var in campaign.VoucherListInput
	var err error
	if in.Limit, in.Page, err = httpkit.LimitAndPage(c); err != nil {
		return in, err
	}
	// The reference documents filters as an object without members.
	if err := httpkit.NotSupported(c.Request.URL.Query(), "the voucher list", "filters"); err != nil {
		return in, err
	}
	httpkit.QueryStrings(c, map[string]**string{"campaign": &in.Campaign, "campaign_id": &in.CampaignID,
		"category": &in.Category, "customer": &in.Customer, "code": &in.Code, "order": &in.Order})
	for _, id := range append(c.QueryArray("ids"), c.QueryArray("ids[]")...) {
		if id != "" {
			in.IDs = append(in.IDs, id)
		}
	}
	err = httpkit.QueryTimes(c, map[string]**time.Time{"created_at[before]": &in.CreatedBefore, "created_at[after]": &in.CreatedAfter,
		"updated_at[before]": &in.UpdatedBefore, "updated_at[after]": &in.UpdatedAfter})
	return in, err
}

// registerImports mounts POST /v1/vouchers/import (VOUCHERS.IMPORT: the
// array of vouchers) and POST /v1/vouchers/bulk/async
// (VOUCHERS.BULK_UPDATE: each code's metadata keys), each 202 with the
// async action; both bodies are bulk bodies.
func registerImports(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	m := root.Mutation()
	v1.POST("/vouchers/import", auth, scheduled(m.ImportVouchers))
	v1.POST("/vouchers/bulk/async", auth, scheduled(m.UpdateVouchersInBulk))
}

// scheduled decodes a bulk body into items and answers 202 with the job
// that schedule creates from them, in one transaction.
func scheduled[I any](schedule func(context.Context, []*I) (*ent.AsyncAction, error)) gin.HandlerFunc {
	return httpkit.WriteStatus(http.StatusAccepted, func(c *gin.Context) (httpkit.Call[*ent.AsyncAction], error) {
		var items []*I
		if err := httpkit.DecodeBulkBody(c, &items); err != nil {
			return nil, err
		}
		return func(ctx context.Context) (*ent.AsyncAction, error) { return schedule(ctx, items) }, nil
	}, func(job *ent.AsyncAction) gin.H { return gin.H{"async_action_id": job.ID} })
}

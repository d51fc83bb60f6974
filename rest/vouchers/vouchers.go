// Package vouchers serves the v1 vouchers (/v1/vouchers: create, read,
// update, delete, enable/disable, list, import, bulk metadata updates,
// transactions; the codes added to a campaign and the campaign's
// transactions under /v1/campaigns/{campaignId}; SDK vouchers.* and
// campaigns.addVoucher/addCertainVoucher) through the graph's resolvers
// (graph/campaign), and renders the voucher and voucher transaction
// objects that publications, redemptions, customers, exports, the client
// API, webhook payloads and the v1 loyalty members in rest show
// (Renderer.JSON, TransactionJSON, RenderTransactions).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, rest/categories and rest/validationrules (a
// voucher shows its categories and rule assignments), never rest
// (graph/internal/layering).
package vouchers

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/validationrules"
)

// Renderer renders vouchers: root is the router's resolver (a voucher's
// categories and rule assignments), PublicURL the configured public URL
// of the service (asset links; the request's host when empty).
type Renderer struct {
	Root      *graph.Resolver
	PublicURL string
}

// Register mounts the voucher routes on v1, each behind auth (the v1 keys
// or a bearer token).
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, r Renderer) {
	q := r.Root.Query()
	v1.POST("/campaigns/:campaignId/vouchers", auth, r.addVouchers)
	v1.POST("/campaigns/:campaignId/vouchers/:code", auth, r.addCertainVoucher)
	v1.GET("/campaigns/:campaignId/transactions", auth, transactionPage("campaignId", q.CampaignTransactionList))
	v1.GET("/vouchers/:code", auth, r.get)
	registerLifecycle(v1, auth, r)
	registerImports(v1, auth, r.Root)
	v1.GET("/vouchers", auth, r.list)
	v1.GET("/vouchers/:code/transactions", auth, transactionPage("code", q.VoucherTransactionList))
}

// addCertainVoucher serves POST /v1/campaigns/{campaignId}/vouchers/{code}
// (SDK campaigns.addCertainVoucher): one voucher with the path's code; a
// code in the body must agree with it.
func (r Renderer) addCertainVoucher(c *gin.Context) {
	var in campaign.AddVouchersInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	code := c.Param("code")
	if in.Code != nil && *in.Code != code {
		httpkit.RenderError(c, apperr.InvalidPayload("Property .code must be the code in the path (%q) or absent", code))
		return
	}
	in.Code = &code
	created, err := httpkit.InTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return r.Root.Mutation().AddVoucher(ctx, c.Param("campaignId"), &in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, r.JSON(c, created))
}

// addVouchers serves POST /v1/campaigns/{campaignId}/vouchers: one voucher
// (200, the voucher) or, with any other vouchers_count, a background job
// (202, {async_action_id}); generateVouchers checks the count's range.
func (r Renderer) addVouchers(c *gin.Context) {
	count := 1
	if raw := c.Query("vouchers_count"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			httpkit.RenderError(c, apperr.InvalidQueryParams("vouchers_count must be an integer, got %q", raw))
			return
		}
		count = n
	}
	var in campaign.AddVouchersInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	campaignID := c.Param("campaignId")
	if count != 1 {
		httpkit.Accepted(c, func(ctx context.Context) (*ent.AsyncAction, error) {
			return r.Root.Mutation().GenerateVouchers(ctx, campaignID, count, &in)
		})
		return
	}
	created, err := httpkit.InTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return r.Root.Mutation().AddVoucher(ctx, campaignID, &in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, r.JSON(c, created))
}

// get serves GET /v1/vouchers/{code}: by code or ID.
func (r Renderer) get(c *gin.Context) {
	v, err := r.Root.Query().Voucher(c.Request.Context(), c.Param("code"))
	r.withAssignments(c, v, err)
}

// withAssignments answers with the voucher and its rule assignments
// (WithAssignments), or the error object of err or of reading them.
func (r Renderer) withAssignments(c *gin.Context, v *ent.Voucher, err error) {
	var body Body
	if err == nil {
		body, err = r.WithAssignments(c, v)
	}
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, body)
}

// WithAssignments is the voucher object with the validation rules
// assigned to it and to its campaign (the form of GET and of create).
func (r Renderer) WithAssignments(c *gin.Context, v *ent.Voucher) (Body, error) {
	assignments, err := r.Root.Voucher().ValidationRulesAssignments(c.Request.Context(), v)
	if err != nil {
		return Body{}, err
	}
	body := r.JSON(c, v)
	items := make([]any, len(assignments))
	for i, a := range assignments {
		items[i] = validationrules.AssignmentJSON(a)
	}
	body.ValidationRulesAssignments = httpkit.NewList(items, len(items))
	return body, nil
}

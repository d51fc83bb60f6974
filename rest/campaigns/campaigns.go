// Package campaigns serves the v1 campaigns (/v1/campaigns: create, list,
// read, update, enable/disable, delete, summary, the imports of codes and
// the export of their transactions; SDK campaigns.*) through the graph's
// resolvers (graph/campaign), and renders the campaign object that
// webhook payloads, template set-ups, the legacy qualifications and the
// v1 loyalty programs show (JSON, Render, ListJSON).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, rest/categories and rest/promotions (a
// PROMOTION campaign shows its tiers), never rest
// (graph/internal/layering). What it answers in the shape of an area
// still in rest (an export) is passed to Register.
package campaigns

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// StartExport answers with the export that start creates, in the export
// area's shape (rest's exports).
type StartExport func(c *gin.Context, start func(context.Context, *export.ExportParametersInput) (*ent.Export, error))

// Register mounts /v1/campaigns on v1, each route behind auth (the v1
// keys or a bearer token); root is the router's resolver and startExport
// answers POST /v1/campaigns/{campaignId}/transactions/export.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver, startExport StartExport) {
	q, m := root.Query(), root.Mutation()
	render := Render(root)
	one := func(op httpkit.Op[*ent.Campaign], write bool) gin.HandlerFunc {
		return func(c *gin.Context) {
			if cmp, err := httpkit.Run(c, op, write); err != nil {
				httpkit.RenderError(c, err)
			} else {
				render(c, http.StatusOK, cmp)
			}
		}
	}
	v1.POST("/campaigns", auth, one(httpkit.WithBody(m.CreateCampaign), true))
	v1.GET("/campaigns", auth, httpkit.Read(httpkit.WithQuery(listInput, q.CampaignList), ListJSON))
	v1.GET("/campaigns/:campaignId", auth, one(httpkit.ByParam("campaignId", q.Campaign), false))
	v1.PUT("/campaigns/:campaignId", auth, one(httpkit.WithParamAndBody("campaignId", m.UpdateCampaign), true))
	// 202 with the async action that deletes the campaign ([?force=true]).
	v1.DELETE("/campaigns/:campaignId", auth, httpkit.WriteStatus(http.StatusAccepted, func(c *gin.Context) (httpkit.Call[*ent.AsyncAction], error) {
		force, err := httpkit.ForceParam(c)
		if err != nil {
			return nil, err
		}
		id := c.Param("campaignId")
		return func(ctx context.Context) (*ent.AsyncAction, error) { return m.DeleteCampaign(ctx, id, force) }, nil
	}, asyncAction))
	v1.POST("/campaigns/:campaignId/enable", auth, one(httpkit.ByParam("campaignId", m.EnableCampaign), true))
	v1.POST("/campaigns/:campaignId/disable", auth, one(httpkit.ByParam("campaignId", m.DisableCampaign), true))
	registerImports(v1, auth, root)
	v1.GET("/campaigns/:campaignId/summary", auth, httpkit.Read(httpkit.WithParamAndQuery("campaignId", summaryDates,
		func(ctx context.Context, id string, d dates) (*campaign.CampaignSummary, error) {
			return q.CampaignSummary(ctx, id, d.start, d.end)
		}), SummaryJSON))
	// The voucher transactions of all the campaign's vouchers (an export of
	// voucher_transactions filtered by campaign_id).
	v1.POST("/campaigns/:campaignId/transactions/export", auth, func(c *gin.Context) {
		startExport(c, func(ctx context.Context, p *export.ExportParametersInput) (*ent.Export, error) {
			return m.ExportCampaignTransactions(ctx, c.Param("campaignId"), p)
		})
	})
}

// asyncAction is the answer of a scheduled job: {async_action_id}.
func asyncAction(job *ent.AsyncAction) gin.H { return gin.H{"async_action_id": job.ID} }

// listInput reads GET /v1/campaigns' query: page/limit, campaign_type,
// campaign_status, is_referral_code, order, expand=category (each
// campaign's categories; empty without it) and the filters[…] object
// (graph/campaign list_filters.go); access_settings is refused (no areas
// and stores here).
func listInput(c *gin.Context) (*campaign.CampaignListInput, error) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		return nil, err
	}
	if err := httpkit.NotSupported(c.Request.URL.Query(), "the campaign list", "access_settings"); err != nil {
		return nil, err
	}
	in := &campaign.CampaignListInput{Limit: limit, Page: page}
	if in.Filters, err = httpkit.DeepFilters(c.Request.URL.Query()); err != nil {
		return nil, err
	}
	if v, ok := c.GetQuery("campaign_type"); ok {
		t := entcampaign.CampaignType(v)
		in.CampaignType = &t
	}
	if v, ok := c.GetQuery("campaign_status"); ok {
		in.CampaignStatus = &v
	}
	if v, ok := c.GetQuery("order"); ok {
		in.Order = &v
	}
	in.Expand = httpkit.QueryList(c, "expand")
	if v, ok := c.GetQuery("is_referral_code"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter is_referral_code must be true or false")
		}
		in.IsReferralCode = &b
	}
	return in, nil
}

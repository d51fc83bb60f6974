package loyaltyv1

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/campaigns"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/vouchers"
)

// loyaltyV1Handlers serve /v1/loyalties (graph/loyaltyv1): programs are
// campaigns, members their loyalty cards, rendered as /v1/campaigns and
// /v1/vouchers render them.
type loyaltyV1Handlers struct {
	root     *graph.Resolver
	render   Renderings
	campaign func(c *gin.Context, status int, cmp *ent.Campaign) // campaigns.Render
}

// Register mounts the /v1/loyalties routes on v1, each behind auth (the
// v1 keys or a bearer token); root is the router's resolver, render the
// shapes of the areas still in rest that these routes answer with.
// Member routes exist twice, with and without the program (reference §0
// "twin routes").
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver, render Renderings) {
	h := loyaltyV1Handlers{root: root, render: render, campaign: campaigns.Render(root)}
	registerLoyaltyRewards(v1, auth, rewardHandlers{root: root, redemption: render.Redemption})
	v1.POST("/loyalties", auth, h.createProgram)
	v1.GET("/loyalties", auth, h.listPrograms)
	v1.GET("/loyalties/:campaignId", auth, h.getProgram)
	v1.PUT("/loyalties/:campaignId", auth, h.updateProgram)
	v1.DELETE("/loyalties/:campaignId", auth, h.deleteProgram)
	v1.GET("/loyalties/:campaignId/transactions", auth, h.programTransactions)

	v1.POST("/loyalties/:campaignId/members", auth, h.addMember)
	v1.GET("/loyalties/:campaignId/members", auth, h.listMembers)
	v1.POST("/loyalties/:campaignId/members/:memberId/transfers", auth, h.transfer)
	for _, prefix := range []string{"/loyalties/:campaignId/members/:memberId", "/loyalties/members/:memberId"} {
		v1.GET(prefix, auth, h.getMember)
		v1.POST(prefix+"/balance", auth, h.balance)
		v1.GET(prefix+"/transactions", auth, h.memberTransactions)
		v1.POST(prefix+"/transactions/export", auth, h.exportMemberTransactions)
		v1.GET(prefix+"/activity", auth, h.memberActivity)
		v1.GET(prefix+"/activities", auth, h.memberActivities)
	}
	registerLoyaltyV1EarningRules(v1, auth, h)
	registerLoyaltyV1Tiers(v1, auth, h)
	registerLoyaltyV1Points(v1, auth, h)
}

// createProgram serves POST /v1/loyalties.
func (h loyaltyV1Handlers) createProgram(c *gin.Context) {
	var in struct {
		campaignpkg.CreateCampaignInput
		loyaltyv1.ProgramSettings
	}
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	created, err := httpkit.InTx(c, func(ctx context.Context) (*ent.Campaign, error) {
		return h.root.Mutation().CreateLoyaltyV1Program(ctx, in.CreateCampaignInput, &in.ProgramSettings)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	h.campaign(c, http.StatusOK, created)
}

// listPrograms serves GET /v1/loyalties: limit, page, order, expand.
func (h loyaltyV1Handlers) listPrograms(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	in := campaignpkg.CampaignListInput{Limit: limit, Page: page, Expand: httpkit.QueryList(c, "expand")}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	res, err := h.root.Query().LoyaltyV1ProgramList(c.Request.Context(), &in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	campaigns.RenderList(c, res)
}

// getProgram serves GET /v1/loyalties/{campaignId} (ID or name).
func (h loyaltyV1Handlers) getProgram(c *gin.Context) {
	cmp, err := h.root.Query().LoyaltyV1Program(c.Request.Context(), c.Param("campaignId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	h.campaign(c, http.StatusOK, cmp)
}

// updateProgram serves PUT /v1/loyalties/{campaignId}: fields outside the
// allowed set are ignored, as by the real service.
func (h loyaltyV1Handlers) updateProgram(c *gin.Context) {
	var in programUpdateBody
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	updated, err := httpkit.InTx(c, func(ctx context.Context) (*ent.Campaign, error) {
		return h.root.Mutation().UpdateLoyaltyV1Program(ctx, c.Param("campaignId"), in.UpdateCampaignInput, &in.ProgramUpdate)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	h.campaign(c, http.StatusOK, updated)
}

// deleteProgram serves DELETE /v1/loyalties/{campaignId}[?force=bool]:
// 200 with the async action that deletes the program and its cards;
// without force=true the program goes to the trash bin.
func (h loyaltyV1Handlers) deleteProgram(c *gin.Context) {
	force, err := httpkit.ForceParam(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	job, err := httpkit.InTx(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().DeleteLoyaltyV1Program(ctx, c.Param("campaignId"), force)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"async_action_id": job.ID})
}

// programTransactions serves GET /v1/loyalties/{campaignId}/transactions.
func (h loyaltyV1Handlers) programTransactions(c *gin.Context) {
	in, err := transactionListQuery(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1ProgramTransactions(c.Request.Context(), c.Param("campaignId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	vouchers.RenderTransactions(c, res)
}

// transactionListQuery reads limit, order and starting_after_id; filters
// are refused (400).
func transactionListQuery(c *gin.Context) (*loyaltyv1.TransactionListInput, error) {
	if err := httpkit.NotSupported(c.Request.URL.Query(), "the transaction list", "filters"); err != nil {
		return nil, err
	}
	limit, err := httpkit.QueryInt(c, "limit")
	if err != nil {
		return nil, err
	}
	in := &loyaltyv1.TransactionListInput{Limit: limit}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID})
	return in, nil
}

// programUpdateBody is the body of PUT /v1/loyalties/{campaignId}: the
// campaign's fields and the program's.
type programUpdateBody struct {
	campaignpkg.UpdateCampaignInput
	loyaltyv1.ProgramUpdate
}

// SetNulls gives the body's null members to both parts (the decoder's
// httpkit.NullRecorder), each reading its own.
func (b *programUpdateBody) SetNulls(names []string) {
	b.UpdateCampaignInput.SetNulls(names)
	b.ProgramUpdate.SetNulls(names)
}

package loyaltyv1

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/rewards"
)

// registerLoyaltyV1Points adds the points-bucket routes of /v1/loyalties:
// pending points, points expiration and their exports, a program's
// transactions export, a tier's rewards and the points estimate.
func registerLoyaltyV1Points(v1 *gin.RouterGroup, auth gin.HandlerFunc, h loyaltyV1Handlers) {
	v1.GET("/loyalties/:campaignId/pending-points", auth, h.programPendingPoints)
	v1.GET("/loyalties/:campaignId/members/:memberId/pending-points", auth, h.memberPendingPoints)
	v1.GET("/loyalties/members/:memberId/pending-points", auth, h.memberPendingPoints)
	const pending = "/loyalties/members/:memberId/pending-points/:pendingPointsId"
	v1.POST(pending+"/activate", auth, h.activatePendingPoints)
	v1.POST(pending+"/balance", auth, h.adjustPendingPoints)
	v1.POST(pending+"/cancel", auth, h.cancelPendingPoints)
	v1.GET("/loyalties/:campaignId/members/:memberId/points-expiration", auth, h.memberPointsExpiration)
	v1.POST("/loyalties/:campaignId/points-expiration/export", auth, h.exportPointsExpiration)
	v1.POST("/loyalties/:campaignId/transactions/export", auth, h.exportProgramTransactions)
	v1.GET("/loyalties/:campaignId/tiers/:loyaltyTierId/rewards", auth, h.tierRewards)
	v1.POST("/loyalties/:campaignId/qualifications", auth, h.estimatePoints)
}

// PendingPointsJSON is a pending-points entry (lopp_…), also in webhook
// payloads.
func PendingPointsJSON(b *ent.PointsBucket) gin.H {
	out := gin.H{"id": b.ID, "voucher_id": b.VoucherID, "campaign_id": b.CampaignID, "customer_id": b.CustomerID,
		"order_id": b.OrderID, "points": b.Points, "details": httpkit.OrEmpty(b.Details), "created_at": httpkit.Timestamp(b.CreatedAt),
		"object": "pending_points"}
	if b.ActivatesAt != nil {
		out["activates_at"] = b.ActivatesAt.UTC().Format(time.DateOnly)
	}
	if b.UpdatedAt != nil {
		out["updated_at"] = httpkit.Timestamp(*b.UpdatedAt)
	}
	return out
}

// PointsBucketJSON is an expiry bucket (lopb_…), also in webhook
// payloads: expires_at is left out when the points never expire.
func PointsBucketJSON(b *ent.PointsBucket) gin.H {
	out := gin.H{"id": b.ID, "voucher_id": b.VoucherID, "campaign_id": b.CampaignID,
		"bucket": gin.H{"total_points": b.Points}, "status": b.Status, "created_at": httpkit.Timestamp(b.CreatedAt),
		"object": "loyalty_points_bucket"}
	if b.ExpiresAt != nil {
		out["expires_at"] = b.ExpiresAt.UTC().Format(time.DateOnly)
	}
	if b.UpdatedAt != nil {
		out["updated_at"] = httpkit.Timestamp(*b.UpdatedAt)
	}
	return out
}

func pendingPointsQuery(c *gin.Context) (*loyaltyv1.PendingPointsListInput, error) {
	limit, err := httpkit.QueryInt(c, "limit")
	if err != nil {
		return nil, err
	}
	in := &loyaltyv1.PendingPointsListInput{Limit: limit}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID})
	return in, nil
}

func renderPendingPage(c *gin.Context, res *loyaltyv1.PendingPointsList, err error) {
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	data := make([]gin.H, len(res.Data))
	for i, b := range res.Data {
		data[i] = PendingPointsJSON(b)
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": data, "has_more": res.HasMore}
	if res.HasMore && len(res.Data) > 0 {
		body["more_starting_after"] = res.Data[len(res.Data)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

// programPendingPoints serves GET /v1/loyalties/{campaignId}/pending-points.
func (h loyaltyV1Handlers) programPendingPoints(c *gin.Context) {
	in, err := pendingPointsQuery(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1ProgramPendingPoints(c.Request.Context(), c.Param("campaignId"), in)
	renderPendingPage(c, res, err)
}

// memberPendingPoints serves GET /v1/loyalties[/{campaignId}]/members/{memberId}/pending-points.
func (h loyaltyV1Handlers) memberPendingPoints(c *gin.Context) {
	in, err := pendingPointsQuery(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1MemberPendingPoints(c.Request.Context(), program(c), c.Param("memberId"), in)
	renderPendingPage(c, res, err)
}

// activatePendingPoints serves POST …/pending-points/{id}/activate (no body).
func (h loyaltyV1Handlers) activatePendingPoints(c *gin.Context) {
	out, err := httpkit.InTx(c, func(ctx context.Context) (*loyaltyv1.CardBalance, error) {
		return h.root.Mutation().ActivateLoyaltyV1PendingPoints(ctx, nil, c.Param("memberId"), c.Param("pendingPointsId"))
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, out)
}

// adjustPendingPoints serves POST …/pending-points/{id}/balance.
func (h loyaltyV1Handlers) adjustPendingPoints(c *gin.Context) {
	var in loyaltyv1.PendingBalanceInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out, err := httpkit.InTx(c, func(ctx context.Context) (*loyaltyv1.PendingBalance, error) {
		return h.root.Mutation().AdjustLoyaltyV1PendingPoints(ctx, nil, c.Param("memberId"), c.Param("pendingPointsId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, out)
}

// cancelPendingPoints serves POST …/pending-points/{id}/cancel: 204.
func (h loyaltyV1Handlers) cancelPendingPoints(c *gin.Context) {
	_, err := httpkit.InTx(c, func(ctx context.Context) (bool, error) {
		return h.root.Mutation().CancelLoyaltyV1PendingPoints(ctx, nil, c.Param("memberId"), c.Param("pendingPointsId"))
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// memberPointsExpiration serves GET …/members/{memberId}/points-expiration.
func (h loyaltyV1Handlers) memberPointsExpiration(c *gin.Context) {
	limit, err := httpkit.QueryInt(c, "limit")
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	page, err := httpkit.QueryInt(c, "page")
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1MemberPointsExpiration(c.Request.Context(), program(c), c.Param("memberId"),
		&loyaltyv1.PointsExpirationListInput{Limit: limit, Page: page})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	data := make([]gin.H, len(res.Data))
	for i, b := range res.Data {
		data[i] = PointsBucketJSON(b)
	}
	c.PureJSON(http.StatusOK, httpkit.NewList(data, res.Total))
}

// exportPointsExpiration serves POST /v1/loyalties/{campaignId}/points-expiration/export.
func (h loyaltyV1Handlers) exportPointsExpiration(c *gin.Context) {
	h.render.Export(c, func(ctx context.Context, p *exportpkg.ExportParametersInput) (*ent.Export, error) {
		return h.root.Mutation().ExportLoyaltyV1PointsExpiration(ctx, c.Param("campaignId"), p)
	})
}

// exportProgramTransactions serves POST /v1/loyalties/{campaignId}/transactions/export.
func (h loyaltyV1Handlers) exportProgramTransactions(c *gin.Context) {
	h.render.Export(c, func(ctx context.Context, p *exportpkg.ExportParametersInput) (*ent.Export, error) {
		return h.root.Mutation().ExportLoyaltyV1ProgramTransactions(ctx, c.Param("campaignId"), p)
	})
}

// tierRewards serves GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards.
func (h loyaltyV1Handlers) tierRewards(c *gin.Context) {
	res, err := h.root.Query().LoyaltyV1TierRewards(c.Request.Context(), c.Param("campaignId"), c.Param("loyaltyTierId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := make([]memberRewardBody, len(res.Data))
	for i, m := range res.Data {
		out[i] = memberRewardBody{Reward: rewards.JSON(m.Reward), Assignment: rewards.AssignmentJSON(m.Assignment), Object: "loyalty_tier_reward"}
	}
	c.PureJSON(http.StatusOK, httpkit.NewList(out, res.Total))
}

// estimatePoints serves POST /v1/loyalties/{campaignId}/qualifications.
func (h loyaltyV1Handlers) estimatePoints(c *gin.Context) {
	var in loyaltyv1.EstimateInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out, err := h.root.Query().LoyaltyV1PointsEstimate(c.Request.Context(), c.Param("campaignId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, out)
}

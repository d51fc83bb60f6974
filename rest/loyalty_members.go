package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
)

// renderMember writes a member with its cards.
func renderMember(c *gin.Context, ctx context.Context, m *ent.LoyaltyMember) {
	cards, err := m.Cards(ctx)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, memberJSON(m, cards))
}

func (h loyaltyHandlers) createMember(c *gin.Context) {
	var in graph.CreateLoyaltyMemberInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var m *ent.LoyaltyMember
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		m, err = h.root.Mutation().CreateLoyaltyMember(ctx, c.Param("programId"), in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	renderMember(c, c.Request.Context(), m)
}

func (h loyaltyHandlers) getMember(c *gin.Context) {
	m, err := h.root.Query().LoyaltyMember(c.Request.Context(), c.Param("programId"), c.Param("memberId"))
	if err != nil {
		renderError(c, err)
		return
	}
	renderMember(c, c.Request.Context(), m)
}

func (h loyaltyHandlers) memberStatus(fn func(context.Context, string, string) (*ent.LoyaltyMember, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		var m *ent.LoyaltyMember
		err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
			var err error
			m, err = fn(ctx, c.Param("programId"), c.Param("memberId"))
			return err
		})
		if err != nil {
			renderError(c, err)
			return
		}
		renderMember(c, c.Request.Context(), m)
	}
}

func (h loyaltyHandlers) adjustPoints(c *gin.Context) {
	var in graph.AdjustPointsInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var out *graph.PointsAdjustment
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		out, err = h.root.Mutation().AdjustCardPoints(ctx, c.Param("programId"), c.Param("memberId"), c.Param("cardId"), in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, pointsAdjustmentJSON(out))
}

func (h loyaltyHandlers) updateReward(c *gin.Context) {
	var in graph.UpdateRewardInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var r *ent.Reward
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		r, err = h.root.Mutation().UpdateReward(ctx, c.Param("id"), in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewardJSON(r))
}

package loyaltyv2

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// withCards loads a member's cards (inside the request's transaction, for
// writes: the member entity is bound to it).
func withCards(ctx context.Context, m *ent.LoyaltyMember) (memberBody, error) {
	cards, err := m.Cards(ctx)
	if err != nil {
		return memberBody{}, err
	}
	return memberWithSummaries(ctx, m, cards)
}

// memberWrite runs fn in one transaction and renders the member it returns.
func memberWrite(c *gin.Context, fn func(ctx context.Context) (*ent.LoyaltyMember, error)) {
	var out memberBody
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		m, err := fn(ctx)
		if err != nil {
			return err
		}
		out, err = withCards(ctx, m)
		return err
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, out)
}

func (h loyaltyHandlers) createMember(c *gin.Context) {
	var in loyaltybase.CreateLoyaltyMemberInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	memberWrite(c, func(ctx context.Context) (*ent.LoyaltyMember, error) {
		return h.root.Mutation().CreateLoyaltyMember(ctx, c.Param("programId"), in)
	})
}

func (h loyaltyHandlers) getMember(c *gin.Context) {
	m, err := h.root.Query().LoyaltyMember(c.Request.Context(), c.Param("programId"), c.Param("memberId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out, err := withCards(c.Request.Context(), m)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, out)
}

func (h loyaltyHandlers) memberStatus(fn func(context.Context, string, string) (*ent.LoyaltyMember, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		memberWrite(c, func(ctx context.Context) (*ent.LoyaltyMember, error) {
			return fn(ctx, c.Param("programId"), c.Param("memberId"))
		})
	}
}

func (h loyaltyHandlers) adjustPoints(c *gin.Context) {
	var in loyaltybase.AdjustPointsInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var out *loyaltybase.PointsAdjustment
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		out, err = h.root.Mutation().AdjustCardPoints(ctx, c.Param("programId"), c.Param("memberId"), c.Param("cardId"), in)
		if err != nil {
			return err
		}
		return loyalty.LoadTransactionCards(ctx, out.Transaction)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, pointsAdjustmentJSON(out))
}

func (h loyaltyHandlers) updateReward(c *gin.Context) {
	var in loyaltybase.UpdateRewardInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var r *ent.Reward
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		r, err = h.root.Mutation().UpdateReward(ctx, c.Param("id"), in)
		return err
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, rewardJSON(r))
}

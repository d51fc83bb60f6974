package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// registerMemberUpdateAndExamine adds PUT …/members/{memberId} (metadata
// merge; "metadata": null clears) and POST /v2/loyalties/examine/rewards
// (the points preview; nothing written).
func registerMemberUpdateAndExamine(v2 *gin.RouterGroup, root *graph.Resolver) {
	v2.PUT("/programs/:programId/members/:memberId", func(c *gin.Context) {
		var in loyalty.UpdateLoyaltyMemberInput // "metadata": null is recorded in its Nulls
		if err := decodeBody(c, &in); err != nil {
			renderError(c, err)
			return
		}
		memberWrite(c, func(ctx context.Context) (*ent.LoyaltyMember, error) {
			return root.Mutation().UpdateLoyaltyMember(ctx, c.Param("programId"), c.Param("memberId"), in)
		})
	})
	v2.POST("/examine/rewards", func(c *gin.Context) {
		var in loyalty.ExamineRewardsInput
		if err := decodeBody(c, &in); err != nil {
			renderError(c, err)
			return
		}
		x, err := root.Query().ExamineRewards(c.Request.Context(), in)
		if err != nil {
			renderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, rewardsExaminationJSON(x))
	})
}

// rewardsExaminationJSON renders the preview in the August document's
// outline: customer, rewards, memberships[{member, program, cards[{card,
// rewards}]}].
func rewardsExaminationJSON(x *loyalty.RewardsExamination) map[string]any {
	rewards := make([]map[string]any, len(x.Rewards))
	for i, r := range x.Rewards {
		rewards[i] = map[string]any{"id": r.ID, "name": r.Name, "type": string(r.Type), "metadata": orEmpty(r.Metadata), "object": "reward"}
	}
	memberships := make([]map[string]any, len(x.Memberships))
	for i, m := range x.Memberships {
		cards := make([]map[string]any, len(m.Cards))
		for j, ec := range m.Cards {
			items := make([]map[string]any, len(ec.Rewards))
			for k, r := range ec.Rewards {
				items[k] = map[string]any{"reward_id": r.RewardID, "points": r.Points, "affordable": r.Affordable, "stock_left": r.StockLeft}
			}
			cards[j] = map[string]any{"card_id": ec.Card.ID, "card_definition_id": ec.Card.CardDefinitionID,
				"balance": ec.Card.Balance, "rewards": items, "object": "card_rewards_estimation"}
		}
		memberships[i] = map[string]any{"member": map[string]any{"id": m.Member.ID, "object": "member"},
			"program": map[string]any{"id": m.Program.ID, "name": m.Program.Name, "object": "program"},
			"cards":   cards, "object": "member_rewards_opportunity"}
	}
	return map[string]any{"customer": map[string]any{"id": x.Customer.ID, "source_id": x.Customer.SourceID,
		"metadata": orEmpty(x.Customer.Metadata), "object": "customer"}, "rewards": rewards, "memberships": memberships,
		"object": "rewards_examine_result"}
}

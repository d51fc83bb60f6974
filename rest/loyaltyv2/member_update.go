package loyaltyv2

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/examine"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerMemberUpdateAndExamine adds PUT …/members/{memberId} (metadata
// merge; "metadata": null clears) and POST /v2/loyalties/examine/rewards
// (the points preview; nothing written).
func registerMemberUpdateAndExamine(v2 *gin.RouterGroup, root *graph.Resolver) {
	v2.PUT("/programs/:programId/members/:memberId", func(c *gin.Context) {
		var in loyalty.UpdateLoyaltyMemberInput // "metadata": null is recorded in its Nulls
		if err := httpkit.DecodeBody(c, &in); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		memberWrite(c, func(ctx context.Context) (*ent.LoyaltyMember, error) {
			return root.Mutation().UpdateLoyaltyMember(ctx, c.Param("programId"), c.Param("memberId"), in)
		})
	})
	v2.POST("/examine/rewards", func(c *gin.Context) {
		var in examine.ExamineRewardsInput
		if err := httpkit.DecodeBody(c, &in); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		x, err := root.Query().ExamineRewards(c.Request.Context(), in)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, rewardsExaminationJSON(x))
	})
}

// rewardsExaminationJSON renders the preview in the August document's
// shape (ExamineRewardsResponse): the customer, the rewards, and for each
// membership the member and program objects and one card_estimation per
// card with a card definition (rewards are assigned per definition: a card
// without one has nothing to estimate) holding a reward_estimation per
// reward its definition offers.
func rewardsExaminationJSON(x *examine.RewardsExamination) map[string]any {
	rewards := make([]map[string]any, len(x.Rewards))
	for i, r := range x.Rewards {
		rewards[i] = map[string]any{"id": r.ID, "name": r.Name, "type": string(r.Type), "metadata": httpkit.OrEmpty(r.Metadata), "object": "reward"}
	}
	memberships := make([]map[string]any, len(x.Memberships))
	for i, m := range x.Memberships {
		cards := []map[string]any{}
		for _, ec := range m.Cards {
			if ec.Card.CardDefinitionID == nil {
				continue
			}
			items := make([]map[string]any, len(ec.Rewards))
			for k, r := range ec.Rewards {
				item := map[string]any{"reward": map[string]any{"id": r.RewardID, "object": "reward"}, "status": r.Status,
					"cost": map[string]any{"points": r.Points, "object": "reward_cost"}, "object": "reward_estimation"}
				if r.Missing > 0 {
					item["unavailability_reasons"] = []map[string]any{{"reason": "insufficient_balance",
						"details": map[string]any{"required": r.Points, "available": ec.Card.Balance, "missing": r.Missing},
						"object":  "reward_unavailability_reason"}}
				}
				items[k] = item
			}
			cards = append(cards, map[string]any{"card": map[string]any{"id": ec.Card.ID,
				"card_definition_id": *ec.Card.CardDefinitionID, "card_type": "INDIVIDUAL", "code": ec.Card.Code, "object": "card"},
				"rewards": items, "object": "card_estimation"})
		}
		memberships[i] = map[string]any{
			"member": map[string]any{"id": m.Member.ID, "customer_id": m.Member.CustomerID, "program_id": m.Member.ProgramID,
				"metadata": httpkit.OrEmpty(m.Member.Metadata), "object": "member"},
			"program": map[string]any{"id": m.Program.ID, "name": m.Program.Name, "metadata": httpkit.OrEmpty(m.Program.Metadata),
				"object": "program"},
			"cards": cards, "object": "member_rewards_opportunity"}
	}
	return map[string]any{"customer": map[string]any{"id": x.Customer.ID, "source_id": x.Customer.SourceID,
		"metadata": httpkit.OrEmpty(x.Customer.Metadata), "object": "customer"}, "rewards": rewards, "memberships": memberships,
		"object": "rewards_examine_result"}
}

// Package loyaltyv2 serves the loyalty API of the second generation
// (/v2/loyalties: programs, card definitions, members and their cards,
// points, rewards and benefits, earning rules, incentives, tier
// structures, order payments and refunds, reports) through the graph's
// resolvers (graph/loyalty), with its own JSON shapes, v2 lists and
// signed cursors (cursor.go).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering); rest
// mounts it with Register and renders its cards, card transactions and
// members in webhook payloads with CardJSON, CardTransactionJSON and
// MemberJSON.
package loyaltyv2

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// loyaltyHandlers serve /v2/loyalties through the GraphQL resolvers.
type loyaltyHandlers struct{ root *graph.Resolver }

// Register mounts the /v2/loyalties routes on r, every one behind auth
// (rest's /v2 middleware: a bearer token plus the application keys).
// root is the router's resolver.
func Register(r *gin.Engine, auth gin.HandlerFunc, root *graph.Resolver) {
	h := loyaltyHandlers{root}
	m, q := root.Mutation(), root.Query()
	v2 := r.Group("/v2/loyalties", auth)
	registerLoyaltyLists(v2, root)
	registerLoyaltyV2Gaps(v2, root) // programs.go (#31)

	v2.POST("/programs", httpkit.Write(httpkit.WithBody(m.CreateLoyaltyProgram), programJSON))
	v2.GET("/programs/:programId", httpkit.Read(httpkit.ByParam("programId", q.LoyaltyProgram), programJSON))
	v2.PUT("/programs/:programId", httpkit.Write(httpkit.WithParamAndBody("programId", m.UpdateLoyaltyProgram), programJSON))
	v2.POST("/programs/:programId/activate", httpkit.Write(httpkit.ByParam("programId", m.ActivateLoyaltyProgram), programJSON))
	v2.POST("/programs/:programId/deactivate", httpkit.Write(httpkit.ByParam("programId", m.DeactivateLoyaltyProgram), programJSON))

	v2.POST("/programs/:programId/members", h.createMember)
	v2.GET("/programs/:programId/members/:memberId", h.getMember)
	v2.POST("/programs/:programId/members/:memberId/activate", h.memberStatus(m.ActivateLoyaltyMember))
	v2.POST("/programs/:programId/members/:memberId/deactivate", h.memberStatus(m.DeactivateLoyaltyMember))
	v2.GET("/programs/:programId/members/:memberId/cards/:cardId/activities", h.cardActivities)
	v2.GET("/programs/:programId/members/:memberId/cards/:cardId/transactions", h.cardTransactions)
	v2.POST("/programs/:programId/members/:memberId/cards/:cardId/points", h.adjustPoints)

	v2.POST("/card-definitions", httpkit.Write(httpkit.WithBody(m.CreateCardDefinition), cardDefinitionJSON))
	v2.GET("/card-definitions/:id", httpkit.Read(httpkit.ByParam("id", q.CardDefinition), cardDefinitionJSON))
	v2.PUT("/card-definitions/:id", httpkit.Write(httpkit.WithParamAndBody("id", m.UpdateCardDefinition), cardDefinitionJSON))
	v2.POST("/card-definitions/:id/activate", httpkit.Write(httpkit.ByParam("id", m.ActivateCardDefinition), cardDefinitionJSON))
	v2.POST("/card-definitions/:id/draft", httpkit.Write(httpkit.ByParam("id", m.DraftCardDefinition), cardDefinitionJSON))

	v2.POST("/rewards", httpkit.Write(httpkit.WithBody(m.CreateReward), rewardJSON))
	v2.GET("/rewards/:id", httpkit.Read(httpkit.ByParam("id", q.Reward), rewardJSON))
	v2.PUT("/rewards/:id", h.updateReward)
	v2.POST("/rewards/:id/activate", httpkit.Write(httpkit.ByParam("id", m.ActivateReward), rewardJSON))
	v2.POST("/rewards/:id/deactivate", httpkit.Write(httpkit.ByParam("id", m.DeactivateReward), rewardJSON))
	v2.POST("/rewards/:id/draft", httpkit.Write(httpkit.ByParam("id", m.DraftReward), rewardJSON))
	v2.GET("/rewards/:id/activities", h.rewardActivities)

	v2.POST("/earning-rules", httpkit.Write(httpkit.WithBody(m.CreateEarningRule), earningRuleJSON))
	v2.GET("/earning-rules/:id", httpkit.Read(httpkit.ByParam("id", q.EarningRule), earningRuleJSON))
	v2.PUT("/earning-rules/:id", httpkit.Write(httpkit.WithParamAndBody("id", m.UpdateEarningRule), earningRuleJSON))
	v2.POST("/earning-rules/:id/activate", httpkit.Write(httpkit.ByParam("id", m.ActivateEarningRule), earningRuleJSON))
	v2.POST("/earning-rules/:id/deactivate", httpkit.Write(httpkit.ByParam("id", m.DeactivateEarningRule), earningRuleJSON))
	v2.POST("/earning-rules/:id/draft", httpkit.Write(httpkit.ByParam("id", m.DraftEarningRule), earningRuleJSON))

	v2.POST("/incentives", httpkit.Write(httpkit.WithBody(m.CreateIncentive), incentiveJSON))
	v2.GET("/incentives/:id", httpkit.Read(httpkit.ByParam("id", q.Incentive), incentiveJSON))
	v2.PUT("/incentives/:id", httpkit.Write(httpkit.WithParamAndBody("id", m.UpdateIncentive), incentiveJSON))
	v2.POST("/incentives/:id/activate", httpkit.Write(httpkit.ByParam("id", m.ActivateIncentive), incentiveJSON))
	v2.POST("/incentives/:id/draft", httpkit.Write(httpkit.ByParam("id", m.DraftIncentive), incentiveJSON))
}

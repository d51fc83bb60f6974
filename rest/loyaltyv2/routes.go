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
	"context"
	"net/http"

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

	v2.POST("/programs", write(withBody(m.CreateLoyaltyProgram), programJSON))
	v2.GET("/programs/:programId", read(byParam("programId", q.LoyaltyProgram), programJSON))
	v2.PUT("/programs/:programId", write(withIDAndBody("programId", m.UpdateLoyaltyProgram), programJSON))
	v2.POST("/programs/:programId/activate", write(byParam("programId", m.ActivateLoyaltyProgram), programJSON))
	v2.POST("/programs/:programId/deactivate", write(byParam("programId", m.DeactivateLoyaltyProgram), programJSON))

	v2.POST("/programs/:programId/members", h.createMember)
	v2.GET("/programs/:programId/members/:memberId", h.getMember)
	v2.POST("/programs/:programId/members/:memberId/activate", h.memberStatus(m.ActivateLoyaltyMember))
	v2.POST("/programs/:programId/members/:memberId/deactivate", h.memberStatus(m.DeactivateLoyaltyMember))
	v2.GET("/programs/:programId/members/:memberId/cards/:cardId/activities", h.cardActivities)
	v2.GET("/programs/:programId/members/:memberId/cards/:cardId/transactions", h.cardTransactions)
	v2.POST("/programs/:programId/members/:memberId/cards/:cardId/points", h.adjustPoints)

	v2.POST("/card-definitions", write(withBody(m.CreateCardDefinition), cardDefinitionJSON))
	v2.GET("/card-definitions/:id", read(byParam("id", q.CardDefinition), cardDefinitionJSON))
	v2.PUT("/card-definitions/:id", write(withIDAndBody("id", m.UpdateCardDefinition), cardDefinitionJSON))
	v2.POST("/card-definitions/:id/activate", write(byParam("id", m.ActivateCardDefinition), cardDefinitionJSON))
	v2.POST("/card-definitions/:id/draft", write(byParam("id", m.DraftCardDefinition), cardDefinitionJSON))

	v2.POST("/rewards", write(withBody(m.CreateReward), rewardJSON))
	v2.GET("/rewards/:id", read(byParam("id", q.Reward), rewardJSON))
	v2.PUT("/rewards/:id", h.updateReward)
	v2.POST("/rewards/:id/activate", write(byParam("id", m.ActivateReward), rewardJSON))
	v2.POST("/rewards/:id/deactivate", write(byParam("id", m.DeactivateReward), rewardJSON))
	v2.POST("/rewards/:id/draft", write(byParam("id", m.DraftReward), rewardJSON))
	v2.GET("/rewards/:id/activities", h.rewardActivities)

	v2.POST("/earning-rules", write(withBody(m.CreateEarningRule), earningRuleJSON))
	v2.GET("/earning-rules/:id", read(byParam("id", q.EarningRule), earningRuleJSON))
	v2.PUT("/earning-rules/:id", write(withIDAndBody("id", m.UpdateEarningRule), earningRuleJSON))
	v2.POST("/earning-rules/:id/activate", write(byParam("id", m.ActivateEarningRule), earningRuleJSON))
	v2.POST("/earning-rules/:id/deactivate", write(byParam("id", m.DeactivateEarningRule), earningRuleJSON))
	v2.POST("/earning-rules/:id/draft", write(byParam("id", m.DraftEarningRule), earningRuleJSON))

	v2.POST("/incentives", write(withBody(m.CreateIncentive), incentiveJSON))
	v2.GET("/incentives/:id", read(byParam("id", q.Incentive), incentiveJSON))
	v2.PUT("/incentives/:id", write(withIDAndBody("id", m.UpdateIncentive), incentiveJSON))
	v2.POST("/incentives/:id/activate", write(byParam("id", m.ActivateIncentive), incentiveJSON))
	v2.POST("/incentives/:id/draft", write(byParam("id", m.DraftIncentive), incentiveJSON))
}

// op is one resolver call of a request.
type op[T any] func(c *gin.Context, ctx context.Context) (T, error)

// byParam calls fn with one path parameter.
func byParam[T any](name string, fn func(context.Context, string) (T, error)) op[T] {
	return func(c *gin.Context, ctx context.Context) (T, error) { return fn(ctx, c.Param(name)) }
}

// withBody decodes the JSON body into the input and calls fn with it.
func withBody[I, T any](fn func(context.Context, I) (T, error)) op[T] {
	return func(c *gin.Context, ctx context.Context) (T, error) {
		var in I
		if err := httpkit.DecodeBody(c, &in); err != nil {
			var zero T
			return zero, err
		}
		return fn(ctx, in)
	}
}

// withIDAndBody calls fn with a path parameter and the decoded JSON body.
func withIDAndBody[I, T any](name string, fn func(context.Context, string, I) (T, error)) op[T] {
	return func(c *gin.Context, ctx context.Context) (T, error) {
		var in I
		if err := httpkit.DecodeBody(c, &in); err != nil {
			var zero T
			return zero, err
		}
		return fn(ctx, c.Param(name), in)
	}
}

// write runs the call in one transaction and renders its result.
func write[T any, B any](call op[T], render func(T) B) gin.HandlerFunc {
	return writeStatus(http.StatusOK, call, render)
}

// writeStatus is write with another success status (202 for the
// documents' asynchronous operations, processed before the answer here).
func writeStatus[T any, B any](status int, call op[T], render func(T) B) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := httpkit.InTx(c, func(ctx context.Context) (T, error) { return call(c, ctx) })
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(status, render(out))
	}
}

// read runs the call and renders its result.
func read[T any, B any](call op[T], render func(T) B) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := call(c, c.Request.Context())
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, render(out))
	}
}

package loyaltyv2

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/loyalty/membership"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// The v2 routes of #31's gaps (graph/loyalty): deletes and activities of
// programs, card definitions, earning rules and rewards, a program's
// sub-resources and their batches, memberships, reward purchases and
// refunds, tier transactions. Tier structures: tiers.go;
// benefits: benefits.go.
func registerLoyaltyV2Gaps(v2 *gin.RouterGroup, root *graph.Resolver) {
	m, q := root.Mutation(), root.Query()
	registerIncentiveSpellings(v2, root)
	registerTierStructures(v2, root)
	registerMemberUpdateAndExamine(v2, root)
	registerMemberDeleteAndActivities(v2, root) // members_more.go
	registerExamineEarning(v2, root)            // examine_earning.go
	registerMembersBatch(v2, root)              // member_batch.go
	registerBenefitTransactions(v2)             // benefit_transactions.go
	registerReports(v2)                         // reports.go
	registerCardBuckets(v2)                     // card_buckets.go
	registerProgramReports(v2)                  // program_reports.go
	registerOrderPayments(v2, root)             // order_payments.go

	v2.DELETE("/programs/:programId", httpkit.Write(httpkit.ByParam("programId", m.DeleteLoyaltyProgram), programJSON))
	v2.GET("/programs/:programId/activities", activityList("lcrsaprg_", "programId", false))
	v2.DELETE("/card-definitions/:id", httpkit.Write(httpkit.ByParam("id", m.DeleteCardDefinition), cardDefinitionJSON))
	v2.GET("/card-definitions/:id/activities", activityList("lcrsacdef_", "id", false))
	v2.DELETE("/earning-rules/:id", httpkit.Write(httpkit.ByParam("id", m.DeleteEarningRule), earningRuleJSON))
	v2.GET("/earning-rules/:id/activities", activityList("lcrsaern_", "id", false))
	v2.DELETE("/rewards/:id", httpkit.Write(httpkit.ByParam("id", m.DeleteReward), rewardJSON))

	program := "/programs/:programId"
	registerProgramAssignmentLists(v2, root) // program_assignments.go
	v2.POST(program+"/card-definitions/batch", httpkit.Write(httpkit.WithParamAndBody("programId", m.BatchProgramCardDefinitions), batchJSON("card_definition")))
	v2.POST(program+"/earning-rules/batch", httpkit.Write(httpkit.WithParamAndBody("programId", m.BatchProgramEarningRules), batchJSON("earning_rule")))
	v2.POST(program+"/tier-structures/batch", httpkit.Write(httpkit.WithParamAndBody("programId", m.BatchProgramTierStructures), batchJSON("tier_structure")))
	v2.GET(program+"/rewards", keysetList("lcrsrewa_", "program-rewards", func(c *gin.Context, p loyaltybase.PageInput) ([]programRewardBody, func(programRewardBody) string, bool, error) {
		page, err := q.ProgramRewards(c.Request.Context(), c.Param("programId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, programRewardJSON), func(b programRewardBody) string { return b.key }, page.HasMore, nil
	}))
	v2.POST(program+"/rewards/batch", httpkit.Write(httpkit.WithParamAndBody("programId", m.BatchProgramRewards), rewardsBatchJSON))
	v2.PUT(program+"/rewards/:rewardId", httpkit.Write(httpkit.WithParamsAndBody("programId", "rewardId", m.UpdateProgramReward), programRewardJSON))

	v2.GET("/memberships/:customerId", membershipsHandler(root))
	v2.GET(program+"/memberships/:customerId", membershipHandler(root))

	member := program + "/members/:memberId"
	v2.POST(member+"/rewards/purchases", httpkit.WriteStatus(http.StatusAccepted, httpkit.Decoded(func(c *gin.Context, ctx context.Context, in loyaltybase.PurchaseRewardInput) (*loyaltybase.RewardPurchaseResult, error) {
		return withTransactionCard(ctx)(m.PurchaseReward(ctx, c.Param("programId"), c.Param("memberId"), in))
	}), purchaseJSON))
	v2.GET(member+"/rewards/purchases", keysetList("lcrsrtx_", "reward-purchases", func(c *gin.Context, p loyaltybase.PageInput) ([]rewardTransactionBody, func(rewardTransactionBody) string, bool, error) {
		page, err := q.RewardPurchases(c.Request.Context(), c.Param("programId"), c.Param("memberId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, rewardTransactionJSON), func(b rewardTransactionBody) string { return b.ID }, page.HasMore, nil
	}))
	v2.POST(program+"/rewards/purchases/:rewardTransactionId/refund", httpkit.WriteStatus(http.StatusAccepted, func(c *gin.Context) (httpkit.Call[*loyaltybase.RewardPurchaseResult], error) {
		var in loyaltybase.RefundRewardPurchaseInput
		if c.Request.ContentLength != 0 { // the body is optional
			if err := httpkit.DecodeBody(c, &in); err != nil {
				return nil, err
			}
		}
		return func(ctx context.Context) (*loyaltybase.RewardPurchaseResult, error) {
			return m.RefundRewardPurchase(ctx, c.Param("programId"), c.Param("rewardTransactionId"), &in)
		}, nil
	}, refundJSON))
	v2.GET(member+"/tiers/transactions", keysetList("lcrsttx_", "tier-transactions", func(c *gin.Context, p loyaltybase.PageInput) ([]tierTransactionBody, func(tierTransactionBody) string, bool, error) {
		page, err := q.MemberTierTransactions(c.Request.Context(), c.Param("programId"), c.Param("memberId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, tierTransactionJSON), func(b tierTransactionBody) string { return b.ID }, page.HasMore, nil
	}))
}

// mapAll renders every row.
func mapAll[T, B any](rows []T, render func(T) B) []B {
	out := make([]B, len(rows))
	for i, r := range rows {
		out[i] = render(r)
	}
	return out
}

// membershipsHandler serves GET /v2/loyalties/memberships/{customerId}.
func membershipsHandler(root *graph.Resolver) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		list, err := membership.CustomerMembershipsOf(ctx, c.Param("customerId"))
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		items := make([]membershipBody, len(list.Memberships))
		for i, ms := range list.Memberships {
			items[i] = membershipJSON(ms, false)
		}
		c.PureJSON(http.StatusOK, map[string]any{"customer": map[string]any{"id": list.Customer.ID,
			"source_id": list.Customer.SourceID, "object": "customer"}, "memberships": items, "object": "memberships_result"})
	}
}

// membershipHandler serves GET …/programs/{programId}/memberships/{customerId}.
func membershipHandler(root *graph.Resolver) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		ms, err := root.Query().ProgramMembership(ctx, c.Param("programId"), c.Param("customerId"))
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, membershipJSON(ms, true))
	}
}

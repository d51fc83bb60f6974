// Package loyaltyv1 serves the v1 loyalty API (/v1/loyalties: programs,
// members and their cards, points balances, transfers, transactions and
// their exports, member activity, pending points, points expiration,
// earning rules, tiers, and the loyalty side of v1 rewards: assignments,
// a member's rewards, redeeming one) through the graph's resolvers
// (graph/loyaltyv1, graph/reward).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, rest/rewards (whose reward and assignment
// objects it shows), rest/campaigns (a program is a campaign) and
// rest/vouchers (voucher transactions), never
// rest (graph/internal/layering). What it answers in the shapes of areas
// still in rest (a member is its loyalty card) rest passes to Register as
// Renderings; rest
// renders pending points and points buckets in webhook payloads with
// PendingPointsJSON and PointsBucketJSON.
package loyaltyv1

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/export"
)

// Renderings are the answers of the areas still in rest that loyalty v1
// gives: a member as /v1/vouchers shows a voucher, exports and
// redemptions as their own routes do (programs are rest/campaigns',
// transactions rest/vouchers'). Each becomes an import once its area has moved
// (docs/architecture.md "Splitting rest").
type Renderings struct {
	// Voucher renders a voucher (a loyalty card) as /v1/vouchers does.
	Voucher func(c *gin.Context, v *ent.Voucher) any
	// Redemption renders a redemption as /v1/redemptions does.
	Redemption func(c *gin.Context, r *ent.Redemption) any
	// Export decodes an export request's optional body, runs start in one
	// transaction and answers with the scheduled export.
	Export func(c *gin.Context, start func(context.Context, *export.ExportParametersInput) (*ent.Export, error))
}

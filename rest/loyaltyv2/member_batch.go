package loyaltyv2

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerMembersBatch adds POST …/members/batch: 202 {async_action_id};
// the entries are enrolled by the job, failures reported per entry. Its
// body may be as long as the other bulk bodies (bulkBodyRoutes: the
// document's 10 MB).
func registerMembersBatch(v2 *gin.RouterGroup, root *graph.Resolver) {
	v2.POST("/programs/:programId/members/batch", func(c *gin.Context) {
		var entries []*loyalty.MemberBatchEntry
		if err := httpkit.DecodeBulkBody(c, &entries); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		httpkit.Accepted(c, func(ctx context.Context) (*ent.AsyncAction, error) {
			return root.Mutation().BatchCreateLoyaltyMembers(ctx, c.Param("programId"), entries)
		})
	})
}

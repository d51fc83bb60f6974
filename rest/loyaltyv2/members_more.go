package loyaltyv2

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerMemberDeleteAndActivities adds DELETE …/members/{memberId} (the
// member is removed, its cards stay in the program unassigned) and GET
// …/members/{memberId}/activities (vl.member.*, also after the delete).
func registerMemberDeleteAndActivities(v2 *gin.RouterGroup, root *graph.Resolver) {
	member := "/programs/:programId/members/:memberId"
	v2.DELETE(member, func(c *gin.Context) {
		var out memberBody
		err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
			m, err := root.Mutation().DeleteLoyaltyMember(ctx, c.Param("programId"), c.Param("memberId"))
			if err != nil {
				return err
			}
			if out, err = memberWithSummaries(ctx, m, m.Edges.Cards); err != nil {
				return err
			}
			out.Status = "DELETED"
			return nil
		})
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, out)
	})
	v2.GET(member+"/activities", keysetList("lcrsambr_", "member-activities", func(c *gin.Context, p loyaltybase.PageInput) ([]map[string]any, func(map[string]any) string, bool, error) {
		page, err := root.Query().MemberActivities(c.Request.Context(), c.Param("programId"), c.Param("memberId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		out := make([]map[string]any, len(page.Data))
		for i, a := range page.Data {
			out[i] = loyaltyActivityJSON(a, false)
		}
		return out, func(b map[string]any) string { return b["id"].(string) }, page.HasMore, nil
	}))
}

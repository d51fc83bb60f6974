package loyaltyv2

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerTierStructures adds /v2/loyalties/tier-structures: CRUD, the
// activation lifecycle, activities and the structure's tiers.
func registerTierStructures(v2 *gin.RouterGroup, root *graph.Resolver) {
	m, q := root.Mutation(), root.Query()
	const item = "/tier-structures/:tierStructureId"
	v2.POST("/tier-structures", httpkit.Write(httpkit.WithBody(m.CreateTierStructure), tierStructureJSON))
	v2.GET("/tier-structures", keysetList("lcrsts_", "tier-structures", func(c *gin.Context, p loyaltybase.PageInput) ([]tierStructureBody, func(tierStructureBody) string, bool, error) {
		page, err := q.TierStructures(c.Request.Context(), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, tierStructureJSON), func(b tierStructureBody) string { return b.ID }, page.HasMore, nil
	}))
	v2.GET(item, httpkit.Read(httpkit.ByParam("tierStructureId", q.TierStructure), tierStructureJSON))
	v2.PUT(item, httpkit.Write(httpkit.WithParamAndBody("tierStructureId", m.UpdateTierStructure), tierStructureJSON))
	v2.DELETE(item, httpkit.Write(httpkit.ByParam("tierStructureId", m.DeleteTierStructure), tierStructureJSON))
	v2.POST(item+"/activate", httpkit.Write(httpkit.ByParam("tierStructureId", m.ActivateTierStructure), tierStructureJSON))
	v2.POST(item+"/deactivate", httpkit.Write(httpkit.ByParam("tierStructureId", m.DeactivateTierStructure), tierStructureJSON))
	v2.POST(item+"/draft", httpkit.Write(httpkit.ByParam("tierStructureId", m.DraftTierStructure), tierStructureJSON))
	v2.GET(item+"/activities", activityList("lcrsats_", "tierStructureId", false))
	v2.POST(item+"/tiers", httpkit.Write(httpkit.WithParamAndBody("tierStructureId", m.CreateTier), structureTierJSON))
	v2.GET(item+"/tiers", keysetList("lcrslt_", "tiers", func(c *gin.Context, p loyaltybase.PageInput) ([]structureTierBody, func(structureTierBody) string, bool, error) {
		page, err := q.Tiers(c.Request.Context(), c.Param("tierStructureId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, structureTierJSON), func(b structureTierBody) string { return b.ID }, page.HasMore, nil
	}))
	v2.PUT(item+"/tiers/:tierId", httpkit.Write(httpkit.WithParamsAndBody("tierStructureId", "tierId", m.UpdateTier), structureTierJSON))
	v2.DELETE(item+"/tiers/:tierId", httpkit.Write(httpkit.ByParams("tierStructureId", "tierId", m.DeleteTier), structureTierJSON))
}

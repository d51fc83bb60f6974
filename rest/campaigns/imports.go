package campaigns

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerImports mounts the imports of existing codes into a campaign
// (docs/imports.md).
func registerImports(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	m := root.Mutation()
	// 202 with the async action (CAMPAIGN.VOUCHERS_IMPORT) importing the
	// array of codes (a bulk body).
	v1.POST("/campaigns/:campaignId/import", auth, httpkit.WriteStatus(http.StatusAccepted,
		func(c *gin.Context) (httpkit.Call[*ent.AsyncAction], error) {
			var items []*campaign.CampaignImportItem
			if err := httpkit.DecodeBulkBody(c, &items); err != nil {
				return nil, err
			}
			id := c.Param("campaignId")
			return func(ctx context.Context) (*ent.AsyncAction, error) { return m.ImportCampaignVouchers(ctx, id, items) }, nil
		}, asyncAction))
	// The multipart field "file" is streamed into the job
	// (CAMPAIGN.VOUCHERS_IMPORT_CSV) as it arrives; 200 with the async
	// action, as the reference answers.
	v1.POST("/campaigns/:campaignId/importCSV", auth, func(c *gin.Context) {
		httpkit.StreamCSV(c, httpkit.MaxUploadBytes, http.StatusOK, func(ctx context.Context, file graphql.Upload) (*ent.AsyncAction, error) {
			return m.ImportCampaignVouchersCSV(ctx, c.Param("campaignId"), file)
		})
	})
}

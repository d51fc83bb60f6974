// Package templates serves the v1 campaign templates
// (/v1/templates/campaigns: their lifecycle, list and the campaign and
// tier set-ups made from them) through the graph's resolvers
// (graph/template), and renders templates for the management API, which
// lists and copies them across projects (rest/management).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit and the campaigns and promotions whose objects
// the set-ups answer with (rest/campaigns, rest/promotions), never rest
// (graph/internal/layering).
package templates

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/template"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// handlers serve /v1/templates/campaigns through the resolvers
// (graph/template); setup.go has the set-ups.
type handlers struct {
	root *graph.Resolver
}

// Register mounts the campaign template routes on v1, each behind auth
// (the v1 keys or a bearer token). root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	h := handlers{root: root}
	m := root.Mutation()
	v1.GET("/templates/campaigns", auth, httpkit.Read(httpkit.WithQuery(ListParams, root.Query().CampaignTemplates), ListJSON))
	v1.POST("/templates/campaigns", auth, httpkit.Write(httpkit.WithBody(m.CreateCampaignTemplate), JSON))
	v1.GET("/templates/campaigns/:campaignTemplateId", auth, httpkit.Read(httpkit.ByParam("campaignTemplateId", root.Query().CampaignTemplate), JSON))
	v1.PUT("/templates/campaigns/:campaignTemplateId", auth, h.update)
	v1.DELETE("/templates/campaigns/:campaignTemplateId", auth, httpkit.NoContent(httpkit.ByParam("campaignTemplateId", m.DeleteCampaignTemplate)))
	v1.POST("/templates/campaigns/:campaignTemplateId/campaign-setup", auth, h.campaignSetup)
	v1.POST("/templates/campaigns/:campaignTemplateId/tier-setup", auth, h.tierSetup)
}

// templateBody is the interface's campaign template.
type templateBody struct {
	ID           string             `json:"id"`
	Name         string             `json:"name"`
	Description  *string            `json:"description,omitempty"`
	CampaignType string             `json:"campaign_type"`
	CreatedAt    httpkit.Timestamp  `json:"created_at"`
	UpdatedAt    *httpkit.Timestamp `json:"updated_at,omitempty"`
	Object       string             `json:"object"`
}

// JSON renders a campaign template.
func JSON(t *ent.CampaignTemplate) any {
	return templateBody{ID: t.ID, Name: t.Name, Description: t.Description, CampaignType: t.CampaignType,
		CreatedAt: httpkit.Timestamp(t.CreatedAt), UpdatedAt: httpkit.OptionalTime(t.UpdatedAt), Object: "campaign_template"}
}

// templateList is the list envelope of templates (total only when asked).
type templateList struct {
	Object            string `json:"object"`
	DataRef           string `json:"data_ref"`
	Data              []any  `json:"data"`
	Total             *int   `json:"total,omitempty"`
	HasMore           bool   `json:"has_more"`
	MoreStartingAfter string `json:"more_starting_after,omitempty"`
}

// ListJSON renders a page of campaign templates.
func ListJSON(l *template.List) any {
	out := templateList{Object: "list", DataRef: "data", Data: make([]any, len(l.Data)), Total: l.Total, HasMore: l.HasMore}
	for i, t := range l.Data {
		out.Data[i] = JSON(t)
	}
	if l.HasMore && len(l.Data) > 0 {
		out.MoreStartingAfter = l.Data[len(l.Data)-1].ID
	}
	return out
}

// ListParams reads a template list's limit, starting_after_id, order,
// include_total and the filters deep object.
func ListParams(c *gin.Context) (*template.ListInput, error) {
	in := &template.ListInput{}
	var err error
	if in.Limit, err = httpkit.QueryInt(c, "limit"); err != nil {
		return nil, err
	}
	httpkit.QueryStrings(c, map[string]**string{"starting_after_id": &in.StartingAfterID, "order": &in.Order})
	if raw := c.Query("include_total"); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter include_total must be true or false, got %q", raw)
		}
		in.IncludeTotal = &b
	}
	if in.Filters, err = httpkit.DeepFilters(c.Request.URL.Query()); err != nil {
		return nil, err
	}
	return in, nil
}

// update serves PUT /v1/templates/campaigns/{id}: an explicit null
// description removes it.
func (h handlers) update(c *gin.Context) {
	var in template.UpdateTemplateInput
	body, err := httpkit.ReadBody(c, httpkit.MaxBodyBytes)
	if err == nil {
		err = httpkit.DecodeJSON(body, &in)
	}
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	t, err := httpkit.InTx(c, func(ctx context.Context) (*ent.CampaignTemplate, error) {
		return h.root.Mutation().UpdateCampaignTemplate(ctx, c.Param("campaignTemplateId"), in)
	})
	httpkit.Answer(c, http.StatusOK, t, err, JSON)
}

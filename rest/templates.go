package rest

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/template"
)

// templateHandlers serve /v1/templates/campaigns through the resolvers
// (graph/template); templates_setup.go has the set-ups.
type templateHandlers struct{ root *graph.Resolver }

// registerTemplates mounts the campaign template routes.
func registerTemplates(v1 *gin.RouterGroup, auth gin.HandlerFunc, h templateHandlers) {
	v1.GET("/templates/campaigns", auth, h.list)
	v1.POST("/templates/campaigns", auth, h.create)
	v1.GET("/templates/campaigns/:campaignTemplateId", auth, h.get)
	v1.PUT("/templates/campaigns/:campaignTemplateId", auth, h.update)
	v1.DELETE("/templates/campaigns/:campaignTemplateId", auth, h.delete)
	v1.POST("/templates/campaigns/:campaignTemplateId/campaign-setup", auth, h.campaignSetup)
	v1.POST("/templates/campaigns/:campaignTemplateId/tier-setup", auth, h.tierSetup)
}

// templateBody is the interface's campaign template.
type templateBody struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	Description  *string    `json:"description,omitempty"`
	CampaignType string     `json:"campaign_type"`
	CreatedAt    timestamp  `json:"created_at"`
	UpdatedAt    *timestamp `json:"updated_at,omitempty"`
	Object       string     `json:"object"`
}

func templateJSON(t *ent.CampaignTemplate) any {
	return templateBody{ID: t.ID, Name: t.Name, Description: t.Description, CampaignType: t.CampaignType,
		CreatedAt: timestamp(t.CreatedAt), UpdatedAt: optionalTime(t.UpdatedAt), Object: "campaign_template"}
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

func templateListJSON(l *template.List) any {
	out := templateList{Object: "list", DataRef: "data", Data: make([]any, len(l.Data)), Total: l.Total, HasMore: l.HasMore}
	for i, t := range l.Data {
		out.Data[i] = templateJSON(t)
	}
	if l.HasMore && len(l.Data) > 0 {
		out.MoreStartingAfter = l.Data[len(l.Data)-1].ID
	}
	return out
}

// templateListParams reads limit, starting_after_id, order, include_total
// and the filters deep object.
func templateListParams(c *gin.Context) (*template.ListInput, error) {
	in := &template.ListInput{}
	var err error
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		return nil, err
	}
	queryStrings(c, map[string]**string{"starting_after_id": &in.StartingAfterID, "order": &in.Order})
	if raw := c.Query("include_total"); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, apperr.InvalidQueryParams("Query parameter include_total must be true or false, got %q", raw)
		}
		in.IncludeTotal = &b
	}
	if in.Filters, err = deepFilters(c.Request.URL.Query()); err != nil {
		return nil, err
	}
	return in, nil
}

// list serves GET /v1/templates/campaigns.
func (h templateHandlers) list(c *gin.Context) {
	in, err := templateListParams(c)
	if err != nil {
		renderError(c, err)
		return
	}
	l, err := h.root.Query().CampaignTemplates(c.Request.Context(), in)
	answer(c, http.StatusOK, l, err, templateListJSON)
}

// create serves POST /v1/templates/campaigns.
func (h templateHandlers) create(c *gin.Context) {
	var in template.CreateTemplateInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	t, err := inTx(c, func(ctx context.Context) (*ent.CampaignTemplate, error) {
		return h.root.Mutation().CreateCampaignTemplate(ctx, in)
	})
	answer(c, http.StatusOK, t, err, templateJSON)
}

// get serves GET /v1/templates/campaigns/{id}.
func (h templateHandlers) get(c *gin.Context) {
	t, err := h.root.Query().CampaignTemplate(c.Request.Context(), c.Param("campaignTemplateId"))
	answer(c, http.StatusOK, t, err, templateJSON)
}

// update serves PUT /v1/templates/campaigns/{id}: an explicit null
// description removes it.
func (h templateHandlers) update(c *gin.Context) {
	var in template.UpdateTemplateInput
	body, err := readBody(c, maxBodyBytes)
	if err == nil {
		err = decodeJSON(body, &in)
	}
	if err != nil {
		renderError(c, err)
		return
	}
	t, err := inTx(c, func(ctx context.Context) (*ent.CampaignTemplate, error) {
		return h.root.Mutation().UpdateCampaignTemplate(ctx, c.Param("campaignTemplateId"), in)
	})
	answer(c, http.StatusOK, t, err, templateJSON)
}

// delete serves DELETE /v1/templates/campaigns/{id}: 204.
func (h templateHandlers) delete(c *gin.Context) {
	_, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteCampaignTemplate(ctx, c.Param("campaignTemplateId"))
	})
	answer[any](c, http.StatusNoContent, nil, err, nil)
}

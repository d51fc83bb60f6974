// Package categories serves the v1 campaign categories (/v1/categories,
// SDK categories.*) through the graph's resolvers (graph/campaign), and
// renders the categories that rest's campaigns, promotion tiers and
// vouchers show (Body, ListJSON).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package categories

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// categoryHandlers serve /v1/categories through the GraphQL resolvers.
type categoryHandlers struct{ root *graph.Resolver }

// Register mounts /v1/categories on v1 (list, create, read, update,
// delete; SDK: categories.*), each one resolver call behind auth (the v1
// keys or a bearer token); root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	h := categoryHandlers{root}
	m := root.Mutation()
	v1.GET("/categories", auth, h.list)
	v1.POST("/categories", auth, httpkit.Write(httpkit.WithBody(m.CreateCategory), categoryJSON))
	v1.GET("/categories/:categoryId", auth, httpkit.Read(httpkit.ByParam("categoryId", root.Query().Category), categoryJSON))
	v1.PUT("/categories/:categoryId", auth, httpkit.Write(httpkit.WithParamAndBody("categoryId", m.UpdateCategory), categoryJSON))
	// 204; the campaigns of the category are left without one.
	v1.DELETE("/categories/:categoryId", auth, httpkit.NoContent(httpkit.ByParam("categoryId", m.DeleteCategory)))
}

// Body is the real service's category object.
type Body struct {
	ID        string             `json:"id"`
	Name      string             `json:"name"`
	Hierarchy int                `json:"hierarchy"`
	CreatedAt httpkit.Timestamp  `json:"created_at"`
	UpdatedAt *httpkit.Timestamp `json:"updated_at,omitempty"`
	Object    string             `json:"object"`
}

func categoryJSON(c *ent.Category) Body {
	return Body{ID: c.ID, Name: c.Name, Hierarchy: c.Hierarchy, CreatedAt: httpkit.Timestamp(c.CreatedAt),
		UpdatedAt: httpkit.OptionalTime(c.UpdatedAt), Object: "category"}
}

// ListJSON is a campaign's (a tier's, a voucher's) categories array.
func ListJSON(cats []*ent.Category) []Body {
	out := make([]Body, len(cats))
	for i, c := range cats {
		out[i] = categoryJSON(c)
	}
	return out
}

// list serves GET /v1/categories: newest first; limit 1-100 (100),
// starting_after_id the last category of the previous page.
func (h categoryHandlers) list(c *gin.Context) {
	limit, err := httpkit.QueryInt(c, "limit")
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	var after *string
	httpkit.QueryStrings(c, map[string]**string{"starting_after_id": &after})
	res, err := h.root.Query().CategoryList(c.Request.Context(), limit, after)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": ListJSON(res.Data),
		"total": res.Total, "has_more": res.HasMore})
}

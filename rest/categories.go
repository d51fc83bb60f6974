package rest

import (
	"context"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
)

// categoryHandlers serve /v1/categories through the GraphQL resolvers.
type categoryHandlers struct{ root *graph.Resolver }

// registerCategories mounts /v1/categories: list, create, read, update,
// delete (SDK: categories.*), each one resolver call.
func registerCategories(v1 *gin.RouterGroup, auth gin.HandlerFunc, h categoryHandlers) {
	v1.GET("/categories", auth, h.list)
	v1.POST("/categories", auth, h.create)
	v1.GET("/categories/:categoryId", auth, h.get)
	v1.PUT("/categories/:categoryId", auth, h.update)
	v1.DELETE("/categories/:categoryId", auth, h.delete)
}

// categoryBody is the real service's category object.
type categoryBody struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Hierarchy int        `json:"hierarchy"`
	CreatedAt timestamp  `json:"created_at"`
	UpdatedAt *timestamp `json:"updated_at,omitempty"`
	Object    string     `json:"object"`
}

func categoryJSON(c *ent.Category) categoryBody {
	return categoryBody{ID: c.ID, Name: c.Name, Hierarchy: c.Hierarchy, CreatedAt: timestamp(c.CreatedAt),
		UpdatedAt: optionalTime(c.UpdatedAt), Object: "category"}
}

// categoriesJSON is a campaign's categories array.
func categoriesJSON(cats []*ent.Category) []categoryBody {
	out := make([]categoryBody, len(cats))
	for i, c := range cats {
		out[i] = categoryJSON(c)
	}
	return out
}

// list serves GET /v1/categories: newest first; limit 1-100 (100),
// starting_after_id the last category of the previous page.
func (h categoryHandlers) list(c *gin.Context) {
	limit, err := queryInt(c, "limit")
	if err != nil {
		renderError(c, err)
		return
	}
	var after *string
	queryStrings(c, map[string]**string{"starting_after_id": &after})
	res, err := h.root.Query().CategoryList(c.Request.Context(), limit, after)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": categoriesJSON(res.Data),
		"total": res.Total, "has_more": res.HasMore})
}

// create serves POST /v1/categories.
func (h categoryHandlers) create(c *gin.Context) {
	var in campaign.CategoryInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	created, err := inTx(c, func(ctx context.Context) (*ent.Category, error) {
		return h.root.Mutation().CreateCategory(ctx, in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, categoryJSON(created))
}

// get serves GET /v1/categories/{categoryId}.
func (h categoryHandlers) get(c *gin.Context) {
	found, err := h.root.Query().Category(c.Request.Context(), c.Param("categoryId"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, categoryJSON(found))
}

// update serves PUT /v1/categories/{categoryId}: name and hierarchy, both required.
func (h categoryHandlers) update(c *gin.Context) {
	var in campaign.CategoryInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	updated, err := inTx(c, func(ctx context.Context) (*ent.Category, error) {
		return h.root.Mutation().UpdateCategory(ctx, c.Param("categoryId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, categoryJSON(updated))
}

// delete serves DELETE /v1/categories/{categoryId}: 204; the campaigns of
// the category are left without one.
func (h categoryHandlers) delete(c *gin.Context) {
	_, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteCategory(ctx, c.Param("categoryId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// queryList reads a query parameter that may repeat or hold a
// comma-separated list (expand=category or expand=a,b).
func queryList(c *gin.Context, name string) []string {
	var out []string
	for _, v := range c.QueryArray(name) {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// Package locations serves the v1 locations (/v1/locations, read only:
// locations are made through GraphQL, docs/locations.md) through the
// graph's resolvers (graph/location).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package locations

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/location"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// locationHandlers serve /v1/locations (read only; locations are made
// through GraphQL, docs/locations.md).
type locationHandlers struct{ root *graph.Resolver }

// Register mounts the location routes on v1, each behind auth (the v1
// keys or a bearer token); root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	h := locationHandlers{root}
	v1.GET("/locations", auth, h.list)
	v1.GET("/locations/:locationId", auth, httpkit.Read(httpkit.ByParam("locationId", root.Query().Location), locationJSON))
}

// locationBody is the interface's location.
type locationBody struct {
	ID        string             `json:"id"`
	Object    string             `json:"object"`
	Name      string             `json:"name"`
	Shape     map[string]any     `json:"shape"`
	CreatedAt httpkit.Timestamp  `json:"created_at"`
	UpdatedAt *httpkit.Timestamp `json:"updated_at"`
}

func locationJSON(l *ent.Location) any {
	return locationBody{ID: l.ID, Object: "location", Name: l.Name, Shape: l.Shape,
		CreatedAt: httpkit.Timestamp(l.CreatedAt), UpdatedAt: httpkit.OptionalTime(l.UpdatedAt)}
}

// list serves GET /v1/locations: limit, order, filters.
func (h locationHandlers) list(c *gin.Context) {
	in := &location.ListInput{}
	var err error
	if in.Limit, err = httpkit.QueryInt(c, "limit"); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	if in.Filters, err = httpkit.DeepFilters(c.Request.URL.Query()); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	l, err := h.root.Query().Locations(c.Request.Context(), in)
	httpkit.Answer(c, http.StatusOK, l, err, func(l *location.List) any {
		items := make([]any, len(l.Data))
		for i, it := range l.Data {
			items[i] = locationJSON(it)
		}
		return struct {
			httpkit.ListEnvelope[any]
			HasMore bool `json:"has_more"`
		}{httpkit.NewList(items, l.Total), l.HasMore}
	})
}

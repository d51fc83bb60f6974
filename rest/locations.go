package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/location"
)

// locationHandlers serve /v1/locations (read only; locations are made
// through GraphQL, docs/locations.md).
type locationHandlers struct{ root *graph.Resolver }

// registerLocations mounts the location routes.
func registerLocations(v1 *gin.RouterGroup, auth gin.HandlerFunc, h locationHandlers) {
	v1.GET("/locations", auth, h.list)
	v1.GET("/locations/:locationId", auth, h.get)
}

// locationBody is the interface's location.
type locationBody struct {
	ID        string         `json:"id"`
	Object    string         `json:"object"`
	Name      string         `json:"name"`
	Shape     map[string]any `json:"shape"`
	CreatedAt timestamp      `json:"created_at"`
	UpdatedAt *timestamp     `json:"updated_at"`
}

func locationJSON(l *ent.Location) any {
	return locationBody{ID: l.ID, Object: "location", Name: l.Name, Shape: l.Shape,
		CreatedAt: timestamp(l.CreatedAt), UpdatedAt: optionalTime(l.UpdatedAt)}
}

// list serves GET /v1/locations: limit, order, filters.
func (h locationHandlers) list(c *gin.Context) {
	in := &location.ListInput{}
	var err error
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		renderError(c, err)
		return
	}
	queryStrings(c, map[string]**string{"order": &in.Order})
	if in.Filters, err = deepFilters(c.Request.URL.Query()); err != nil {
		renderError(c, err)
		return
	}
	l, err := h.root.Query().Locations(c.Request.Context(), in)
	answer(c, http.StatusOK, l, err, func(l *location.List) any {
		items := make([]any, len(l.Data))
		for i, it := range l.Data {
			items[i] = locationJSON(it)
		}
		return struct {
			listEnvelope[any]
			HasMore bool `json:"has_more"`
		}{newList(items, l.Total), l.HasMore}
	})
}

// get serves GET /v1/locations/{id}.
func (h locationHandlers) get(c *gin.Context) {
	l, err := h.root.Query().Location(c.Request.Context(), c.Param("locationId"))
	answer(c, http.StatusOK, l, err, locationJSON)
}

// Package locations serves the v1 locations (/v1/locations, read only:
// locations are made through GraphQL, docs/locations.md) through the
// graph's resolvers (graph/location).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package locations

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/location"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Register mounts the location routes on v1 (read only; locations are
// made through GraphQL, docs/locations.md), each behind auth (the v1 keys
// or a bearer token); root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	v1.GET("/locations", auth, httpkit.Read(httpkit.WithQuery(listParams, root.Query().Locations), listJSON))
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

// listParams reads GET /v1/locations' query: limit, order, filters;
// end_date is refused (400: the reference does not say what it bounds).
func listParams(c *gin.Context) (*location.ListInput, error) {
	in := &location.ListInput{}
	if err := httpkit.NotSupported(c.Request.URL.Query(), "the location list", "end_date"); err != nil {
		return nil, err
	}
	var err error
	if in.Limit, err = httpkit.QueryInt(c, "limit"); err != nil {
		return nil, err
	}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order})
	if in.Filters, err = httpkit.DeepFilters(c.Request.URL.Query()); err != nil {
		return nil, err
	}
	return in, nil
}

// listJSON renders a page of locations: the v1 list with has_more.
func listJSON(l *location.List) any {
	items := make([]any, len(l.Data))
	for i, it := range l.Data {
		items[i] = locationJSON(it)
	}
	return struct {
		httpkit.ListEnvelope[any]
		HasMore bool `json:"has_more"`
	}{httpkit.NewList(items, l.Total), l.HasMore}
}

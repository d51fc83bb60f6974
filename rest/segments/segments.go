// Package segments serves the v1 customer segments (/v1/segments)
// through the graph's resolvers (graph/customer), and renders a segment
// for the customers' routes (JSON: GET /v1/customers/{id}/segments).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package segments

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Register mounts the segment routes on v1, each behind auth (the v1 keys
// or a bearer token); root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	m := root.Mutation()
	v1.POST("/segments", auth, httpkit.Write(httpkit.WithBody(m.CreateSegment), segmentSynced))
	v1.GET("/segments", auth, httpkit.Read(httpkit.WithQuery(func(c *gin.Context) (*customer.SegmentListInput, error) {
		return segmentListParams(c.Request.URL.Query())
	}, root.Query().ListSegments), segmentListJSON))
	v1.GET("/segments/:id", auth, httpkit.Read(httpkit.ByParam("id", root.Query().Segment), segmentSynced))
	v1.DELETE("/segments/:id", auth, httpkit.NoContent(httpkit.ByParam("id", m.DeleteSegment)))
}

type segmentBody struct {
	ID                string             `json:"id"`
	Name              string             `json:"name"`
	CreatedAt         httpkit.Timestamp  `json:"created_at"`
	UpdatedAt         *httpkit.Timestamp `json:"updated_at"`
	Type              string             `json:"type"`
	Filter            map[string]any     `json:"filter"`
	InitialSyncStatus string             `json:"initial_sync_status,omitempty"`
	Object            string             `json:"object"`
}

// JSON renders a segment as a list shows it (no initial_sync_status).
func JSON(s *ent.Segment) any { return segmentJSON(s) }

// segmentSynced renders a created or read segment: membership is computed
// synchronously, so initial_sync_status is DONE.
func segmentSynced(s *ent.Segment) segmentBody {
	body := segmentJSON(s)
	body.InitialSyncStatus = "DONE"
	return body
}

func segmentJSON(s *ent.Segment) segmentBody {
	return segmentBody{ID: s.ID, Name: s.Name, CreatedAt: httpkit.Timestamp(s.CreatedAt), UpdatedAt: httpkit.OptionalTime(s.UpdatedAt),
		Type: s.Type, Filter: s.Filter, Object: "segment"}
}

// segmentListJSON renders a page of segments (GET /v1/segments).
func segmentListJSON(page *customer.SegmentList) segmentList {
	items := make([]segmentBody, len(page.Data))
	for i, s := range page.Data {
		items[i] = segmentJSON(s)
	}
	return segmentList{ListEnvelope: httpkit.NewList(items, page.Total), Segments: items}
}

// segmentList is the v1 list envelope with the segments in data (as
// data_ref says and the real service's example shows) and again in
// segments, the array the reference schema names (docs/events.md).
type segmentList struct {
	httpkit.ListEnvelope[segmentBody]
	Segments []segmentBody `json:"segments"`
}

// segmentListParams reads limit, order, ids (ids=…&ids=… or ids[]=…) and
// the filters deep object (filters[name][conditions][$in][]=a); other
// parameters are ignored.
func segmentListParams(q url.Values) (*customer.SegmentListInput, error) {
	in := &customer.SegmentListInput{}
	if v, ok := q["limit"]; ok {
		n, err := strconv.Atoi(v[0])
		if err != nil || len(v) > 1 {
			return nil, apperr.InvalidQueryParams("Query parameter limit must be an integer from 1 to 100, got %q", v[0])
		}
		in.Limit = &n
	}
	if v, ok := q["order"]; ok {
		in.Order = &v[0]
	}
	in.IDs = append(append(in.IDs, q["ids"]...), q["ids[]"]...)
	for key := range q {
		if strings.HasPrefix(key, "ids[") && key != "ids[]" {
			in.IDs = append(in.IDs, q[key]...)
		}
	}
	filters, err := httpkit.DeepFilters(q)
	if err != nil {
		return nil, err
	}
	in.Filters = filters
	return in, nil
}

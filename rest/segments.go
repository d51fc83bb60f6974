package rest

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
)

// segmentHandlers serve /v1/segments through the GraphQL resolvers.
type segmentHandlers struct{ root *graph.Resolver }

type segmentBody struct {
	ID                string         `json:"id"`
	Name              string         `json:"name"`
	CreatedAt         timestamp      `json:"created_at"`
	UpdatedAt         *timestamp     `json:"updated_at"`
	Type              string         `json:"type"`
	Filter            map[string]any `json:"filter"`
	InitialSyncStatus string         `json:"initial_sync_status,omitempty"`
	Object            string         `json:"object"`
}

func segmentJSON(s *ent.Segment) segmentBody {
	return segmentBody{ID: s.ID, Name: s.Name, CreatedAt: timestamp(s.CreatedAt), UpdatedAt: optionalTime(s.UpdatedAt),
		Type: s.Type, Filter: s.Filter, Object: "segment"}
}

// create serves POST /v1/segments; membership is computed synchronously,
// so initial_sync_status is DONE.
func (h segmentHandlers) create(c *gin.Context) {
	var in customer.CreateSegmentInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var seg *ent.Segment
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		seg, err = h.root.Mutation().CreateSegment(ctx, in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	body := segmentJSON(seg)
	body.InitialSyncStatus = "DONE"
	c.PureJSON(http.StatusOK, body)
}

// get serves GET /v1/segments/{id}.
func (h segmentHandlers) get(c *gin.Context) {
	seg, err := h.root.Query().Segment(c.Request.Context(), c.Param("id"))
	if err != nil {
		renderError(c, err)
		return
	}
	body := segmentJSON(seg)
	body.InitialSyncStatus = "DONE"
	c.PureJSON(http.StatusOK, body)
}

// delete serves DELETE /v1/segments/{id}: 204.
func (h segmentHandlers) delete(c *gin.Context) {
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		_, err := h.root.Mutation().DeleteSegment(ctx, c.Param("id"))
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// list serves GET /v1/segments.
func (h segmentHandlers) list(c *gin.Context) {
	in, err := segmentListParams(c.Request.URL.Query())
	if err != nil {
		renderError(c, err)
		return
	}
	page, err := h.root.Query().ListSegments(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	items := make([]segmentBody, len(page.Data))
	for i, s := range page.Data {
		items[i] = segmentJSON(s)
	}
	c.PureJSON(http.StatusOK, segmentList{listEnvelope: newList(items, page.Total), Segments: items})
}

// segmentList is the v1 list envelope with the segments in data (as
// data_ref says and the real service's example shows) and again in
// segments, the array the reference schema names (docs/events.md).
type segmentList struct {
	listEnvelope[segmentBody]
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
	filters, err := deepFilters(q)
	if err != nil {
		return nil, err
	}
	in.Filters = filters
	return in, nil
}

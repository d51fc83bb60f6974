package rest

import (
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// queryStrings sets each non-empty query parameter named in dsts.
func queryStrings(c *gin.Context, dsts map[string]**string) {
	for name, dst := range dsts {
		if raw := c.Query(name); raw != "" {
			*dst = &raw
		}
	}
}

// queryTimes sets each query parameter named in dsts from an ISO 8601 date
// or date-time (the SDKs send created_at[before] and the like).
func queryTimes(c *gin.Context, dsts map[string]**time.Time) error {
	for name, dst := range dsts {
		if raw := c.Query(name); raw != "" {
			t, err := parseDateOrTime(raw)
			if err != nil {
				return apperr.InvalidQueryParams("Query parameter %s must be an ISO 8601 date or date-time, got %q", name, raw)
			}
			*dst = &t
		}
	}
	return nil
}

// queryInt reads an optional whole-number query parameter (ranges are the
// use case's to check, for GraphQL too).
func queryInt(c *gin.Context, name string) (*int, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return nil, apperr.InvalidQueryParams("Query parameter %s must be an integer, got %q", name, raw)
	}
	return &n, nil
}

package rest

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

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

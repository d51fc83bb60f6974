package httpkit

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// QueryTimes sets each query parameter named in dsts from an ISO 8601 date
// or date-time (the SDKs send created_at[before] and the like).
func QueryTimes(c *gin.Context, dsts map[string]**time.Time) error {
	for name, dst := range dsts {
		if raw := c.Query(name); raw != "" {
			t, err := ParseDateOrTime(raw)
			if err != nil {
				return apperr.InvalidQueryParams("Query parameter %s must be an ISO 8601 date or date-time, got %q", name, raw)
			}
			*dst = &t
		}
	}
	return nil
}

// ParseDateOrTime reads an ISO 8601 date-time or date.
func ParseDateOrTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", s)
}

// ForceParam reads the deletes' optional force=true|false (nil when
// absent).
func ForceParam(c *gin.Context) (*bool, error) { return QueryBool(c, "force") }

package httpkit

import (
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// QueryStrings sets each non-empty query parameter named in dsts.
func QueryStrings(c *gin.Context, dsts map[string]**string) {
	for name, dst := range dsts {
		if raw := c.Query(name); raw != "" {
			*dst = &raw
		}
	}
}

// QueryInt reads an optional whole-number query parameter (ranges are the
// use case's to check, for GraphQL too).
func QueryInt(c *gin.Context, name string) (*int, error) {
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

// LimitAndPage reads the optional limit and page query parameters of a v1
// list (their ranges are the use case's to check).
func LimitAndPage(c *gin.Context) (limit, page *int, err error) {
	if limit, err = QueryInt(c, "limit"); err != nil {
		return nil, nil, err
	}
	page, err = QueryInt(c, "page")
	return limit, page, err
}

// QueryList reads a query parameter that may repeat or hold a
// comma-separated list (expand=category or expand=a,b).
func QueryList(c *gin.Context, name string) []string {
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

// QueryBool reads an optional true|false query parameter (nil when
// absent; anything else is a 400).
func QueryBool(c *gin.Context, name string) (*bool, error) {
	v, ok := c.GetQuery(name)
	if !ok {
		return nil, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return nil, apperr.InvalidQueryParams("Query parameter %s must be true or false", name)
	}
	return &b, nil
}

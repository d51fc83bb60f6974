package rest

import (
	"strings"

	"github.com/gin-gonic/gin"
)

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

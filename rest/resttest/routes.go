package resttest

import (
	"net/http"
	"net/http/httptest"
	"sort"

	"github.com/gin-gonic/gin"
)

// routeMatcher finds the route template (gin's FullPath, e.g.
// /v1/vouchers/:code) that serves a request, by asking a gin engine with the
// same routes and the same path settings as the service: gin's own matching
// rules (static segments before parameters, raw paths) decide, not a copy.
type routeMatcher struct{ engine *gin.Engine }

// fullPathHeader carries the matched template out of the matcher engine.
const fullPathHeader = "X-Matched-Route"

func newRouteMatcher(routes gin.RoutesInfo) routeMatcher {
	e := gin.New()
	e.UseRawPath = true
	e.UnescapePathValues = true
	for _, r := range routes {
		e.Handle(r.Method, r.Path, func(c *gin.Context) {
			c.Header(fullPathHeader, c.FullPath())
			c.Status(http.StatusNoContent)
		})
	}
	return routeMatcher{engine: e}
}

// match returns the template of the route serving method and the request
// URI (path and query, as sent), or "" when no route does (404/405).
func (m routeMatcher) match(method, requestURI string) string {
	if m.engine == nil {
		return ""
	}
	req := httptest.NewRequest(method, requestURI, nil)
	rec := httptest.NewRecorder()
	m.engine.ServeHTTP(rec, req)
	return rec.Header().Get(fullPathHeader)
}

// Routes lists the service's routes (method and gin template), sorted.
func (e *Env) Routes() [][2]string {
	var out [][2]string
	for _, r := range e.routes.engine.Routes() {
		out = append(out, [2]string{r.Method, r.Path})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][1] != out[j][1] {
			return out[i][1] < out[j][1]
		}
		return out[i][0] < out[j][0]
	})
	return out
}

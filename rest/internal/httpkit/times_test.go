package httpkit

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// TestQueryTimesAndForceParam: a date or a date-time in the query is read,
// anything else is invalid_query_params naming the parameter; force is
// absent (nil), true or false, and any other value is refused.
func TestQueryTimesAndForceParam(t *testing.T) {
	var after, before *time.Time
	var force *bool
	var err error
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/t", func(c *gin.Context) {
		after, before = nil, nil
		err = QueryTimes(c, map[string]**time.Time{"after": &after, "before": &before})
	})
	r.GET("/f", func(c *gin.Context) { force, err = ForceParam(c) })
	get := func(uri string) { r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, uri, nil)) }

	get("/t?after=2026-11-28&before=2026-11-28T10:00:00.5Z")
	if err != nil || !after.Equal(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)) ||
		!before.Equal(time.Date(2026, 11, 28, 10, 0, 0, 5e8, time.UTC)) {
		t.Errorf("dates: %v %v %v", after, before, err)
	}
	get("/t")
	if err != nil || after != nil || before != nil {
		t.Errorf("none: %v %v %v", after, before, err)
	}
	get("/t?after=yesterday")
	if e, ok := apperr.From(err); !ok || e.Key != "invalid_query_params" || !strings.Contains(e.Details, "after") {
		t.Errorf("after=yesterday: %v", err)
	}

	yes, no := true, false
	for uri, want := range map[string]*bool{"/f": nil, "/f?force=true": &yes, "/f?force=false": &no} {
		get(uri)
		if err != nil || (want == nil) != (force == nil) || (want != nil && *want != *force) {
			t.Errorf("%s: %v %v", uri, force, err)
		}
	}
	get("/f?force=maybe")
	if e, ok := apperr.From(err); !ok || e.Key != "invalid_query_params" {
		t.Errorf("force=maybe: %v", err)
	}
}

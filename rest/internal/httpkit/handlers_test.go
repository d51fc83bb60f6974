package httpkit

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/apperr"
)

// serveAt runs handler for /items/:id (with the request id, a quiet logger
// and, when client is not nil, the ent client in the request context, as
// rest's middleware sets them) and returns the response.
func serveAt(t *testing.T, client *ent.Client, method, path, body string, handler gin.HandlerFunc) *httptest.ResponseRecorder {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Handle(method, "/items/:id", func(c *gin.Context) {
		c.Set(RequestIDKey, "req_1")
		c.Set(LoggerKey, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if client != nil {
			c.Request = c.Request.WithContext(ent.NewContext(c.Request.Context(), client))
		}
		c.Next()
	}, handler)
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
	return w
}

type named struct {
	Name string `json:"name"`
}

// TestHandlerAdapters: Read calls with the path parameter outside a
// transaction; Write decodes the body before it opens one (a bad body is a
// 400 without any, and the call does not run), runs the call in it and
// renders; WriteStatus answers its status, NoContent 204 without a body;
// a call's error is the error object.
func TestHandlerAdapters(t *testing.T) {
	client := entdbtest.Open(t).Client
	render := func(s string) gin.H { return gin.H{"got": s} }

	w := serveAt(t, client, http.MethodGet, "/items/a1", "", Read(ByParam("id", func(ctx context.Context, id string) (string, error) {
		if ent.TxFromContext(ctx) != nil {
			t.Error("Read ran in a transaction")
		}
		return "read " + id, nil
	}), render))
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"got":"read a1"}` {
		t.Errorf("read: %d %s", w.Code, w.Body)
	}

	update := WithParamAndBody("id", func(ctx context.Context, id string, in named) (string, error) {
		if ent.TxFromContext(ctx) == nil {
			t.Error("Write ran outside a transaction")
		}
		if in.Name == "missing" {
			return "", apperr.NotFound("item", id)
		}
		return id + " " + in.Name, nil
	})
	w = serveAt(t, client, http.MethodPut, "/items/a1", `{"name":"x"}`, Write(update, render))
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"got":"a1 x"}` {
		t.Errorf("write: %d %s", w.Code, w.Body)
	}
	w = serveAt(t, client, http.MethodPost, "/items/a1", `{"name":"y"}`, WriteStatus(http.StatusAccepted, update, render))
	if w.Code != http.StatusAccepted || strings.TrimSpace(w.Body.String()) != `{"got":"a1 y"}` {
		t.Errorf("write status: %d %s", w.Code, w.Body)
	}
	w = serveAt(t, client, http.MethodPut, "/items/a1", `{"name":"missing"}`, Write(update, render))
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"key":"not_found"`) {
		t.Errorf("call's error: %d %s", w.Code, w.Body)
	}
	// No client: a transaction could not open, so a 400 shows that the
	// body was refused before any was asked for.
	ran := false
	bad := WithBody(func(ctx context.Context, in named) (string, error) { ran = true; return "", nil })
	w = serveAt(t, nil, http.MethodPost, "/items/a1", `{"name":`, Write(bad, render))
	if w.Code != http.StatusBadRequest || ran || !strings.Contains(w.Body.String(), `"request_id":"req_1"`) {
		t.Errorf("bad body: %d %s (call ran: %v)", w.Code, w.Body, ran)
	}

	w = serveAt(t, client, http.MethodDelete, "/items/a1", "", NoContent(ByParams("id", "id", func(ctx context.Context, a, b string) (string, error) {
		if a != "a1" || b != "a1" || ent.TxFromContext(ctx) == nil {
			t.Errorf("delete: %q %q, in a transaction: %v", a, b, ent.TxFromContext(ctx) != nil)
		}
		return a, nil
	})))
	if w.Code != http.StatusNoContent || w.Body.Len() != 0 {
		t.Errorf("delete: %d %q", w.Code, w.Body)
	}
	w = serveAt(t, client, http.MethodDelete, "/items/a1", "", NoContent(Bound(func(c *gin.Context, ctx context.Context) (string, error) {
		return "", apperr.NotFound("item", c.Param("id"))
	})))
	if w.Code != http.StatusNotFound {
		t.Errorf("delete's error: %d %s", w.Code, w.Body)
	}
}

// TestQueryAdapters: WithQuery and WithParamAndQuery hand the parsed query
// (and the path parameter) to the call; a query that does not parse refuses the
// request before the call runs.
func TestQueryAdapters(t *testing.T) {
	parse := func(c *gin.Context) (*int, error) { return QueryInt(c, "limit") }
	render := func(s string) gin.H { return gin.H{"got": s} }
	ran := false
	list := WithParamAndQuery("id", parse, func(ctx context.Context, id string, limit *int) (string, error) {
		ran = true
		if limit == nil {
			return id + " all", nil
		}
		return id + " " + strconv.Itoa(*limit), nil
	})
	w := serveAt(t, nil, http.MethodGet, "/items/a1?limit=5", "", Read(list, render))
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"got":"a1 5"}` {
		t.Errorf("list: %d %s", w.Code, w.Body)
	}
	ran = false
	w = serveAt(t, nil, http.MethodGet, "/items/a1?limit=many", "", Read(list, render))
	if w.Code != http.StatusBadRequest || ran || !strings.Contains(w.Body.String(), `"key":"invalid_query_params"`) {
		t.Errorf("bad query: %d %s (call ran: %v)", w.Code, w.Body, ran)
	}
	w = serveAt(t, nil, http.MethodGet, "/items/a1", "", Read(WithQuery(parse, func(ctx context.Context, limit *int) (string, error) {
		return "none", nil
	}), render))
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"got":"none"}` {
		t.Errorf("without a parameter: %d %s", w.Code, w.Body)
	}
}

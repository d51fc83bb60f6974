package httpkit

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// serve runs handler on a fresh router with a request id and a quiet
// logger, as rest's middleware sets them, and returns the response.
func serve(t *testing.T, method, body string, handler gin.HandlerFunc) *httptest.ResponseRecorder {
	t.Helper()
	return serveAt(t, nil, method, "/items/x", body, handler)
}

// TestRenderErrorShape: a caller error is the error object with the
// request id; any other error is a bare 500 that shows nothing of it.
func TestRenderErrorShape(t *testing.T) {
	w := serve(t, http.MethodGet, "", func(c *gin.Context) { RenderError(c, apperr.NotFound("voucher", "V1")) })
	var got map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusNotFound || got["code"] != float64(404) || got["key"] != "not_found" ||
		got["request_id"] != "req_1" || got["resource_id"] != "V1" || got["resource_type"] != "voucher" {
		t.Errorf("not found: %d %s", w.Code, w.Body)
	}
	w = serve(t, http.MethodGet, "", func(c *gin.Context) { RenderError(c, errors.New("pq: relation secret does not exist")) })
	if w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "secret") ||
		!strings.Contains(w.Body.String(), `"request_id":"req_1"`) {
		t.Errorf("internal: %d %s", w.Code, w.Body)
	}
	w = serve(t, http.MethodGet, "", func(c *gin.Context) { RenderGraphQLError(c, apperr.NotFound("voucher", "V1")) })
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"extensions":{"code":404,"details":"Cannot find voucher with id V1","key":"not_found","request_id":"req_1"}`) {
		t.Errorf("GraphQL: %d %s", w.Code, w.Body)
	}
}

// nullable records the null members DecodeBody reports.
type nullable struct {
	Name  *string `json:"name"`
	nulls []string
}

func (n *nullable) SetNulls(names []string) { n.nulls = names }

// TestDecodeBody: an empty body is {}, explicit nulls are recorded, a
// wrong type names the property, a number no field can hold and a body
// over MaxBodyBytes are refused.
func TestDecodeBody(t *testing.T) {
	decode := func(body string) (*nullable, error) {
		var in nullable
		var err error
		serve(t, http.MethodPost, body, func(c *gin.Context) { err = DecodeBody(c, &in) })
		return &in, err
	}
	if in, err := decode(""); err != nil || in.Name != nil {
		t.Errorf("empty: %+v %v", in, err)
	}
	in, err := decode(`{"name": null, "address": {"city": null}}`)
	sort.Strings(in.nulls)
	if err != nil || strings.Join(in.nulls, ",") != "address.city,name" {
		t.Errorf("nulls: %v %v", in.nulls, err)
	}
	for body, want := range map[string]string{
		`{"name": 5}`: "invalid_payload: Property .name must be a string",
		`{"name": "x", "metadata": {"n": 1e400}}`: "invalid_payload: Property .metadata.n must be",
		`{"name": `: "invalid_json",
		`{"name": "` + strings.Repeat("x", MaxBodyBytes) + `"}`: "payload_too_large",
	} {
		_, err := decode(body)
		e, ok := apperr.From(err)
		if !ok || !strings.HasPrefix(e.Key+": "+e.Details, want) && e.Key != want {
			t.Errorf("%.40s: got %v, want %s", body, err, want)
		}
	}
}

// TestListOfAndQuery: ListOf is a v1 list of every item (never a null
// data array); LimitAndPage reads whole numbers and refuses others.
func TestListOfAndQuery(t *testing.T) {
	b, _ := json.Marshal(ListOf([]int(nil), func(i int) int { return i }))
	if string(b) != `{"object":"list","data_ref":"data","data":[],"total":0}` {
		t.Errorf("empty list: %s", b)
	}
	var limit, page *int
	var err error
	r := gin.New()
	r.GET("/x", func(c *gin.Context) { limit, page, err = LimitAndPage(c) })
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x?limit=5", nil))
	if err != nil || limit == nil || *limit != 5 || page != nil {
		t.Errorf("limit=5: %v %v %v", limit, page, err)
	}
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x?page=two", nil))
	if e, ok := apperr.From(err); !ok || e.Key != "invalid_query_params" {
		t.Errorf("page=two: %v", err)
	}
}

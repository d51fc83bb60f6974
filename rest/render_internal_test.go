package rest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// TestRenderJSONWritesWhatPureJSONWrites: renderJSON's answer is c.PureJSON's
// byte for byte, headers included, plus a Content-Length — also for an
// answer longer than net/http's 2 KiB response buffer, which c.PureJSON
// sent chunked — through a real server.
func TestRenderJSONWritesWhatPureJSONWrites(t *testing.T) {
	useResponseCodec()
	gin.SetMode(gin.ReleaseMode)
	at := timestamp(time.Date(2026, 11, 27, 1, 2, 3, 456_000_000, time.UTC))
	small := map[string]any{"name": "Zoë <b>&</b> \u2028 \"q\"", "n": 1.5, "at": at, "list": []any{nil, true}}
	large := publicationBody{ID: "pub_1", Object: "publication", CreatedAt: at, Metadata: map[string]any{"long": strings.Repeat("x<>&", 700)},
		VouchersID: []string{"v_1"}, Customer: map[string]any{"id": "cust_1"}}
	for name, v := range map[string]any{"small": small, "large": large} {
		r := gin.New()
		r.GET("/pure", func(c *gin.Context) { c.PureJSON(http.StatusOK, v) })
		r.GET("/render", func(c *gin.Context) { renderJSON(c, http.StatusOK, v) })
		srv := httptest.NewServer(r)
		get := func(path string) (*http.Response, string) {
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			return resp, string(b)
		}
		pure, pureBody := get("/pure")
		got, gotBody := get("/render")
		srv.Close()
		if gotBody != pureBody || got.StatusCode != pure.StatusCode || got.Header.Get("Content-Type") != pure.Header.Get("Content-Type") {
			t.Errorf("%s: renderJSON wrote %d %q %q, PureJSON %d %q %q", name, got.StatusCode, got.Header.Get("Content-Type"), gotBody,
				pure.StatusCode, pure.Header.Get("Content-Type"), pureBody)
		}
		if got.ContentLength != int64(len(gotBody)) || len(got.TransferEncoding) != 0 {
			t.Errorf("%s: Content-Length %d, Transfer-Encoding %v for %d bytes", name, got.ContentLength, got.TransferEncoding, len(gotBody))
		}
		if name == "large" && (len(pure.TransferEncoding) == 0 || len(gotBody) < 2048) {
			t.Errorf("large: %d bytes, PureJSON's Transfer-Encoding %v: not the case this test is about", len(gotBody), pure.TransferEncoding)
		}
		if strconv.Itoa(len(gotBody)) != got.Header.Get("Content-Length") {
			t.Errorf("%s: Content-Length header %q", name, got.Header.Get("Content-Length"))
		}
	}
}

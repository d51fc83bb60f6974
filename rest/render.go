package rest

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/gin-gonic/gin"
	gojson "github.com/goccy/go-json"
)

// renderBuffers are the buffers renderJSON encodes into; one that grew
// past maxPooledRenderBuffer (a large list) is left to the collector.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledRenderBuffer = 64 << 10

// renderJSON writes v as c.PureJSON does, byte for byte (the response
// codec's encoder, HTML characters unescaped, a final newline), but
// encoded into one pooled buffer first, so the answer goes out with its
// Content-Length in one write to the connection: c.PureJSON encodes
// straight into the response, and an answer longer than net/http's 2 KiB
// buffer (a publication whose voucher has a category, or metadata) was
// sent chunked. An answer that cannot be encoded is a 500 error object.
func renderJSON(c *gin.Context, status int, v any) {
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledRenderBuffer {
			buf.Reset()
			renderBuffers.Put(buf)
		}
	}()
	buf.Reset()
	enc := gojson.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		renderError(c, err)
		return
	}
	h := c.Writer.Header()
	if len(h["Content-Type"]) == 0 {
		h["Content-Type"] = jsonContentType // as gin sets it
	}
	h["Content-Length"] = []string{strconv.Itoa(buf.Len())}
	c.Status(status)
	_, _ = c.Writer.Write(buf.Bytes())
}

// jsonContentType is gin's Content-Type of JSON answers (never modified).
var jsonContentType = []string{"application/json; charset=utf-8"}

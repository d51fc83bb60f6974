package rest

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// maxHeaderBytes bounds the total size of a request's header fields
// (names, values and Host) that the service accepts.
//
// It sits below the HTTP server's MaxHeaderBytes (1 MiB, set in
// cmd/promoengine): a request whose header block is larger than that never
// reaches the router, and net/http itself answers it with a plain-text
// "431 Request Header Fields Too Large". Between the two limits, limitHeaders
// answers 431 in the service's own error shape.
const maxHeaderBytes = 64 << 10

// limitHeaders refuses a request whose header fields add up to more than
// maxHeaderBytes: 431 request_header_fields_too_large, as a GraphQL error
// on /graphql and as the REST error object elsewhere.
func limitHeaders(c *gin.Context) {
	if headerBytes(c.Request) <= maxHeaderBytes {
		c.Next()
		return
	}
	err := apperr.New(http.StatusRequestHeaderFieldsTooLarge, "request_header_fields_too_large",
		"Request header fields too large",
		fmt.Sprintf("The request header fields must add up to at most %d bytes", maxHeaderBytes))
	if c.Request.URL.Path == "/graphql" {
		renderGraphQLError(c, err)
		return
	}
	renderError(c, err)
}

// headerBytes is the size of r's header fields as sent ("Name: value\r\n"
// each, Host included).
func headerBytes(r *http.Request) int {
	n := len("Host: \r\n") + len(r.Host)
	for name, values := range r.Header {
		for _, v := range values {
			n += len(name) + len(": \r\n") + len(v)
		}
	}
	return n
}

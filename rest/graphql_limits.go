package rest

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// limitGraphQLBody bounds a /graphql request body to maxBodyBytes, the
// limit of every REST body. A declared Content-Length above it is answered
// at once, before authentication; a body sent without one (chunked) stops
// at the limit when the GraphQL handler reads it, which answers the same
// 413 payload_too_large in the GraphQL error shape.
func limitGraphQLBody(c *gin.Context) {
	if c.Request.ContentLength > maxBodyBytes {
		renderGraphQLError(c, apperr.New(http.StatusRequestEntityTooLarge, "payload_too_large", "Payload too large",
			fmt.Sprintf("The request body must be at most %d bytes", maxBodyBytes)))
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes)
	c.Next()
}

// graphQLMethodNotAllowed answers the methods /graphql does not serve in
// the GraphQL error shape (the router's NoMethod answers in the REST one).
func graphQLMethodNotAllowed(c *gin.Context) {
	c.Header("Allow", "GET, POST")
	renderGraphQLError(c, apperr.New(http.StatusMethodNotAllowed, "method_not_allowed", "Method not allowed",
		"GraphQL is served over GET (queries only) and POST"))
}

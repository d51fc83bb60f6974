package httpkit

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
)

// errorBody is the real service's error object.
type errorBody struct {
	Code         int    `json:"code"`
	Key          string `json:"key"`
	Message      string `json:"message"`
	Details      string `json:"details,omitempty"`
	RequestID    string `json:"request_id"`
	ResourceID   string `json:"resource_id,omitempty"`
	ResourceType string `json:"resource_type,omitempty"`
	// Error is a validation rule's custom message ({"message": …}).
	Error *customMessageBody `json:"error,omitempty"`
}

// customMessageBody is the error member of an error object.
type customMessageBody struct {
	Message string `json:"message"`
}

// RenderError writes err as the error object and aborts the request.
// Errors that are not caller errors are logged with the request id and
// shown as a bare 500: no SQL, no stack, no internals.
func RenderError(c *gin.Context, err error) {
	e, ok := apperr.From(err)
	if !ok {
		Logger(c).ErrorContext(c.Request.Context(), "internal error",
			"request_id", RequestID(c), "error", err.Error())
		e = apperr.Internal()
	}
	status := e.Code
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	if e.RetryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	c.Abort()
	body := errorBody{
		Code: e.Code, Key: e.Key, Message: e.Message, Details: e.Details,
		RequestID: RequestID(c), ResourceID: e.ResourceID, ResourceType: e.ResourceType,
	}
	if e.CustomMessage != "" {
		body.Error = &customMessageBody{Message: e.CustomMessage}
	}
	c.PureJSON(status, body)
}

// RenderGraphQLError writes an error the way GraphQL clients read it.
func RenderGraphQLError(c *gin.Context, err error) {
	e, ok := apperr.From(err)
	if !ok {
		Logger(c).ErrorContext(c.Request.Context(), "internal error", "request_id", RequestID(c), "error", err.Error())
		e = apperr.Internal()
	}
	status := e.Code
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	ext := gin.H{"code": e.Code, "key": e.Key, "request_id": RequestID(c)}
	if e.Details != "" {
		ext["details"] = e.Details
	}
	if e.RetryAfter > 0 {
		ext["retry_after"] = e.RetryAfter
		c.Header("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	c.Abort()
	c.PureJSON(status, gin.H{"errors": []gin.H{{"message": e.Message, "extensions": ext}}})
}

// NoEndpoint answers a path the router does not serve: 404 not_found,
// "No endpoint METHOD PATH".
func NoEndpoint(c *gin.Context) {
	RenderError(c, apperr.New(http.StatusNotFound, "not_found", "Resource not found",
		"No endpoint "+c.Request.Method+" "+c.Request.URL.Path))
	c.Abort()
}

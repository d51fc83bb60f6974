package rest

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// httpTracer makes the request spans, from the global tracer provider
// at the time of use (cmd/promoengine sets it when tracing is on).
func httpTracer() trace.Tracer { return otel.Tracer("github.com/promoengine/promoengine/rest") }

// traceRequests gives every request a server span, continuing the caller's
// trace when it sends a W3C traceparent header. The span is named by the
// matched route ("POST /v1/redemptions"; unmatched paths: the method only,
// so the names stay few), and carries the request id, the route and the
// status. The GraphQL operation and the SQL statements of the request are
// its children. NewRouter installs it first, and only with
// Options.Tracing.
func traceRequests(c *gin.Context) {
	ctx := otel.GetTextMapPropagator().Extract(c.Request.Context(), propagation.HeaderCarrier(c.Request.Header))
	ctx, span := httpTracer().Start(ctx, c.Request.Method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(
			attribute.String("http.request.method", c.Request.Method),
			attribute.String("url.path", c.Request.URL.Path),
		))
	defer span.End()
	c.Request = c.Request.WithContext(ctx)
	c.Next()

	status := c.Writer.Status()
	span.SetAttributes(
		attribute.String("promoengine.request_id", requestID(c)),
		attribute.Int("http.response.status_code", status),
	)
	if route := c.FullPath(); route != "" {
		span.SetName(c.Request.Method + " " + route)
		span.SetAttributes(attribute.String("http.route", route))
	}
	if status >= http.StatusInternalServerError {
		span.SetStatus(codes.Error, fmt.Sprintf("HTTP %d", status))
	}
}

package entdb

import (
	"context"
	"database/sql/driver"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// sqlTracer makes the statement spans, from the global tracer provider
// at the time of use (cmd/promoengine sets it when tracing is on).
func sqlTracer() trace.Tracer { return otel.Tracer("github.com/promoengine/promoengine/ent/entdb") }

// tracedConn adds a client span per statement to a cached connection. It
// is installed only with Options.Trace (no wrapper at all when tracing is
// off), and even then a statement gets a span only inside a recorded span
// (a request or a webhook delivery): background polling makes none. Every
// other method and optional interface of the connection is its own
// (embedded). The span covers running the statement up to its first
// result, not reading the rows; it carries the statement's text with its
// placeholders, never the argument values.
type tracedConn struct {
	*cachingConn
	system string // db.system.name: postgresql or sqlite
}

// QueryContext implements driver.QueryerContext.
func (c *tracedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return c.cachingConn.QueryContext(ctx, query, args)
	}
	ctx, span := c.start(ctx, query)
	rows, err := c.cachingConn.QueryContext(ctx, query, args)
	endStatement(span, err)
	return rows, err
}

// ExecContext implements driver.ExecerContext.
func (c *tracedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return c.cachingConn.ExecContext(ctx, query, args)
	}
	ctx, span := c.start(ctx, query)
	res, err := c.cachingConn.ExecContext(ctx, query, args)
	endStatement(span, err)
	return res, err
}

// start opens the span of one statement, named by its operation
// (SELECT, INSERT, …).
func (c *tracedConn) start(ctx context.Context, query string) (context.Context, trace.Span) {
	op := operation(query)
	return sqlTracer().Start(ctx, op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("db.system.name", c.system),
		attribute.String("db.operation.name", op),
		attribute.String("db.query.text", query),
	))
}

// endStatement records a failure (driver.ErrSkip is not one) and ends span.
func endStatement(span trace.Span, err error) {
	if err != nil && err != driver.ErrSkip {
		span.RecordError(err)
		span.SetStatus(codes.Error, "statement failed")
	}
	span.End()
}

// operation is the statement's first keyword, upper-cased ("SQL" when it
// has none).
func operation(query string) string {
	q := strings.TrimLeft(query, " \t\r\n(")
	end := strings.IndexAny(q, " \t\r\n(")
	if end < 0 {
		end = len(q)
	}
	if end == 0 {
		return "SQL"
	}
	return strings.ToUpper(q[:end])
}

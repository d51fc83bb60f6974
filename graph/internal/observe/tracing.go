package observe

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// gqlTracer makes the operation spans, from the global tracer provider
// at the time of use (cmd/promoengine sets it when tracing is on).
func gqlTracer() trace.Tracer { return otel.Tracer("github.com/promoengine/promoengine/graph") }

// OperationTracing gives every GraphQL operation a span, a child of the
// HTTP request's, named by the operation's type and name ("query
// Campaigns"); the SQL statements the resolvers run become its children.
// graph.NewHandler installs it only with HandlerOptions.Tracing.
type OperationTracing struct{}

var (
	_ graphql.HandlerExtension     = OperationTracing{}
	_ graphql.OperationInterceptor = OperationTracing{}
)

// ExtensionName implements graphql.HandlerExtension.
func (OperationTracing) ExtensionName() string { return "OperationTracing" }

// Validate implements graphql.HandlerExtension.
func (OperationTracing) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation implements graphql.OperationInterceptor: the span
// starts once the operation is parsed and validated.
func (OperationTracing) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	kind, name := "operation", oc.OperationName
	if oc.Operation != nil {
		kind = string(oc.Operation.Operation)
		if name == "" {
			name = oc.Operation.Name
		}
	}
	spanName := kind
	if name != "" {
		spanName += " " + name
	}
	ctx, span := gqlTracer().Start(ctx, spanName, trace.WithAttributes(
		attribute.String("graphql.operation.type", kind),
		attribute.String("graphql.operation.name", name),
	))
	respond := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		resp := respond(ctx)
		if resp != nil && len(resp.Errors) > 0 {
			span.SetStatus(codes.Error, resp.Errors[0].Message)
		}
		span.End()
		return resp
	}
}

package graph

import (
	"context"
	"regexp"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
)

// Operation labels of promoengine_graphql_operations_total besides the
// operations' own names.
const (
	// OperationAnonymous is an operation without a name.
	OperationAnonymous = "anonymous"
	// OperationInvalid is a request that never became an operation: an
	// undecodable body, a query that does not parse or validate, an
	// unknown operationName.
	OperationInvalid = "invalid"
	// OperationOther stands for names beyond MaxGraphQLOperationNames or
	// not shaped like a GraphQL name.
	OperationOther = "other"
)

// MaxGraphQLOperationNames bounds how many distinct operation names get
// their own series; later names are counted as OperationOther. Operation
// names are chosen by callers, so without a bound they could grow the
// metrics without end.
const MaxGraphQLOperationNames = 200

var operationName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// GraphQLMetrics is a gqlgen extension that counts operations by name and
// outcome in promoengine_graphql_operations_total{operation,outcome}
// (outcome "ok", or "error" when the response carries any error). A nil
// *GraphQLMetrics counts nothing.
type GraphQLMetrics struct {
	ops   *prometheus.CounterVec
	mu    sync.Mutex
	names map[string]struct{}
}

// NewGraphQLMetrics registers the operation counter with reg.
func NewGraphQLMetrics(reg prometheus.Registerer) *GraphQLMetrics {
	m := &GraphQLMetrics{
		ops: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promoengine_graphql_operations_total",
			Help: "GraphQL operations answered, by operation name (anonymous, invalid, other when the name is not kept) and outcome (ok, error).",
		}, []string{"operation", "outcome"}),
		names: map[string]struct{}{},
	}
	reg.MustRegister(m.ops)
	return m
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = (*GraphQLMetrics)(nil)

// ExtensionName implements graphql.HandlerExtension.
func (m *GraphQLMetrics) ExtensionName() string { return "OperationMetrics" }

// Validate implements graphql.HandlerExtension.
func (m *GraphQLMetrics) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse implements graphql.ResponseInterceptor: it runs for
// every response, including requests refused before execution.
func (m *GraphQLMetrics) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if m == nil || resp == nil {
		return resp
	}
	outcome := "ok"
	if len(resp.Errors) > 0 {
		outcome = "error"
	}
	m.ops.WithLabelValues(m.label(ctx), outcome).Inc()
	return resp
}

// label is the operation label of the request in ctx.
func (m *GraphQLMetrics) label(ctx context.Context) string {
	if !graphql.HasOperationContext(ctx) {
		return OperationInvalid
	}
	op := graphql.GetOperationContext(ctx).Operation
	switch {
	case op == nil:
		return OperationInvalid
	case op.Name == "":
		return OperationAnonymous
	case !operationName.MatchString(op.Name):
		return OperationOther
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.names[op.Name]; ok {
		return op.Name
	}
	if len(m.names) >= MaxGraphQLOperationNames {
		return OperationOther
	}
	m.names[op.Name] = struct{}{}
	return op.Name
}

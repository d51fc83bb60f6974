package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"entgo.io/contrib/entgql"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
)

// Limits that keep one query from taking the server down.
const (
	MaxComplexity = 1000
	MaxDepth      = 12
)

// HandlerOptions configure the GraphQL HTTP handler.
type HandlerOptions struct {
	// Logger receives internal errors (never shown to callers).
	Logger *slog.Logger
	// RequestID returns the id of the request in ctx, for error logs.
	RequestID func(context.Context) string
}

// NewHandler returns the GraphQL endpoint: GET (queries only) and POST
// transports, a parsed-query cache, automatic persisted queries,
// introspection, complexity and depth limits, one transaction per mutation,
// and an error presenter that puts code and key into extensions. The
// request's context must carry the ent client and the viewer.
func NewHandler(opts HandlerOptions) http.Handler {
	srv := handler.New(NewSchema(NewResolver()))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(extension.FixedComplexityLimit(MaxComplexity))
	srv.Use(DepthLimit{Max: MaxDepth})
	srv.Use(mutationTx{entgql.Transactioner{TxOpener: entgql.TxOpenerFunc(ent.OpenTxFromContext)}})
	srv.SetErrorPresenter(presentError(opts))
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		return fmt.Errorf("graphql panic: %v", v)
	})
	return srv
}

// mutationTx runs each mutation in one transaction (entgql.Transactioner)
// and lets requests that never became an operation — an undecodable body —
// through to their error response; the plain Transactioner panics on them.
type mutationTx struct{ entgql.Transactioner }

// InterceptResponse implements graphql.ResponseInterceptor.
func (t mutationTx) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if !graphql.HasOperationContext(ctx) {
		return next(ctx)
	}
	return t.Transactioner.InterceptResponse(ctx, next)
}

// presentError renders every resolver error with extensions.code (the HTTP
// status it would have on REST) and extensions.key.
func presentError(opts HandlerOptions) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gqlErr *gqlerror.Error
		if errors.As(err, &gqlErr) && gqlErr.Err == nil {
			// Parse, validation and input-coercion errors from gqlparser, and
			// our own operation checks (which already carry a key).
			if _, keyed := gqlErr.Extensions["key"]; !keyed {
				gqlErr.Extensions = map[string]any{"code": http.StatusBadRequest, "key": "invalid_graphql_request"}
			}
			gqlErr.Extensions["request_id"] = opts.RequestID(ctx)
			return gqlErr
		}
		out := graphql.DefaultErrorPresenter(ctx, err)
		e, ok := apperr.From(err)
		if !ok {
			opts.Logger.ErrorContext(ctx, "graphql internal error",
				"request_id", opts.RequestID(ctx), "error", err.Error())
			e = apperr.Internal()
		}
		out.Message = e.Message
		if e.Details != "" {
			out.Message = e.Message + ": " + e.Details
		}
		ext := map[string]any{"code": e.Code, "key": e.Key}
		if e.Details != "" {
			ext["details"] = e.Details
		}
		if e.ResourceID != "" {
			ext["resource_id"], ext["resource_type"] = e.ResourceID, e.ResourceType
		}
		ext["request_id"] = opts.RequestID(ctx)
		out.Extensions = ext
		return out
	}
}

// DepthLimit rejects operations whose selections nest deeper than Max.
type DepthLimit struct{ Max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = DepthLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (DepthLimit) ExtensionName() string { return "DepthLimit" }

// Validate implements graphql.HandlerExtension.
func (d DepthLimit) Validate(graphql.ExecutableSchema) error {
	if d.Max < 1 {
		return errors.New("depth limit must be positive")
	}
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (d DepthLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, 0); depth > d.Max {
		err := gqlerror.Errorf("operation is nested %d levels deep; the limit is %d", depth, d.Max)
		err.Extensions = map[string]any{"code": http.StatusUnprocessableEntity, "key": "query_too_deep"}
		return err
	}
	return nil
}

func selectionDepth(set ast.SelectionSet, fragments ast.FragmentDefinitionList, seen int) int {
	if seen > 64 {
		return seen // pathological nesting; already far beyond any limit
	}
	deepest := seen
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if len(s.SelectionSet) == 0 {
				d = seen + 1
			} else {
				d = selectionDepth(s.SelectionSet, fragments, seen+1)
			}
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, fragments, seen)
		case *ast.FragmentSpread:
			if f := fragments.ForName(s.Name); f != nil {
				d = selectionDepth(f.SelectionSet, fragments, seen)
			}
		}
		if d > deepest {
			deepest = d
		}
	}
	return deepest
}

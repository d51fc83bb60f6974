package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"entgo.io/contrib/entgql"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/fields"
	"github.com/promoengine/promoengine/graph/internal/observe"
)

// Limits that keep one query from taking the server down (see CostLimit and
// DepthLimit for how they are counted).
const (
	// MaxComplexity bounds an operation's cost.
	MaxComplexity = 1000
	// MaxDepth bounds how deep an operation's schema fields nest.
	MaxDepth = 12
	// MaxIntrospectionDepth bounds how deep the selection under one
	// __schema or __type field nests.
	MaxIntrospectionDepth = 20
)

// HandlerOptions configure the GraphQL HTTP handler.
type HandlerOptions struct {
	// Logger receives internal errors (never shown to callers).
	Logger *slog.Logger
	// RequestID returns the id of the request in ctx, for error logs.
	RequestID func(context.Context) string
	// Introspection answers __schema and __type queries (GraphiQL, code
	// generators). When false they are refused with key
	// introspection_disabled; __typename keeps working.
	Introspection bool
	// Metrics counts operations by name and outcome; nil counts nothing.
	Metrics *GraphQLMetrics
	// Resolver is the root the schema executes over; nil makes a new one.
	// The REST router passes its own, so both transports share one.
	Resolver *Resolver
	// Tracing gives every operation an OpenTelemetry span (tracing.go).
	Tracing bool
}

// NewHandler returns the GraphQL endpoint: GET (queries only) and POST
// transports, a parsed-query cache, automatic persisted queries,
// introspection when enabled, cost and depth limits, one transaction per
// mutation, and an error presenter that puts code and key into extensions.
// Every error the endpoint answers — including those gqlgen's transports
// write themselves — carries code and key (see guardHTTP). The request's
// context must carry the ent client and the viewer.
func NewHandler(opts HandlerOptions) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.RequestID == nil {
		opts.RequestID = observe.RequestIDFromContext
	}
	if opts.Resolver == nil {
		opts.Resolver = NewResolver()
	}
	srv := handler.New(NewSchema(opts.Resolver))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(postTransport{})
	// File uploads (the GraphQL multipart request spec; the Upload scalar).
	// The REST layer bounds every /graphql body to 1 MiB, so files stay in
	// memory; larger ones go through the REST upload routes, which stream.
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: 1 << 20, MaxMemory: 1 << 20})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(opts.Metrics) // first, so it sees every response as sent (nil: counts nothing)
	if opts.Tracing {
		srv.Use(observe.OperationTracing{})
	}
	// 503 and Retry-After for an outage (graphql_unavailable.go); outside
	// mutationTx, so it sees a transaction that could not open or commit.
	srv.AroundResponses(unavailableStatus)
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(noIntrospection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: newAPQCache()})
	srv.Use(&CostLimit{Max: MaxComplexity})
	srv.Use(DepthLimit{Max: MaxDepth, MaxIntrospection: MaxIntrospectionDepth})
	srv.Use(NumberRange{})
	srv.Use(explicitNulls{}) // null clears an update's field, absent keeps it (graphql_nulls.go)
	present := presentError(opts)
	srv.Use(mutationTx{Transactioner: entgql.Transactioner{TxOpener: entgql.TxOpenerFunc(ent.OpenTxFromContext)},
		present: present})
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		return next(fields.WithSiblingStore(ctx))
	})
	srv.SetErrorPresenter(present)
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		return fmt.Errorf("graphql panic: %v", v)
	})
	return guardHTTP(srv, present)
}

// mutationTx runs each mutation in one transaction (entgql.Transactioner)
// and lets requests that never became an operation — an undecodable body —
// through to their error response; the plain Transactioner panics on them.
// An operation that is one mutation whose resolver opens its own
// transaction when it needs one (ownTransactionFields) runs without. A
// transaction that cannot be opened or committed (the database is down) is
// presented as the service's error — 503 service_unavailable — where the
// plain Transactioner would put the driver's text into a message.
type mutationTx struct {
	entgql.Transactioner
	// present renders a failure to open or commit the transaction (the
	// plain Transactioner puts the driver's text into the message).
	present graphql.ErrorPresenterFunc
}

// ownTransactionFields are the mutations that open their own transaction
// when they need one: the redemptions, which write in one statement
// outside any transaction when they can (graph/redemption/statement.go), and the
// validations, which write only when they lock a session and are
// otherwise admitted with the process's other database work
// (graph/redemption/validate.go, admission.go).
var ownTransactionFields = map[string]bool{"redeemStacked": true, "redeemVoucher": true,
	"validateStacked": true, "validateVoucher": true}

// InterceptResponse implements graphql.ResponseInterceptor.
func (t mutationTx) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if !graphql.HasOperationContext(ctx) || ownsTransaction(graphql.GetOperationContext(ctx).Operation) {
		return next(ctx)
	}
	if op := graphql.GetOperationContext(ctx).Operation; op == nil || op.Operation != ast.Mutation {
		return next(ctx)
	}
	txCtx, tx, err := t.OpenTx(ctx)
	if err != nil {
		return &graphql.Response{Errors: gqlerror.List{t.present(ctx, fmt.Errorf("opening transaction: %w", err))}}
	}
	defer func() {
		if r := recover(); r != nil {
			_ = tx.Rollback()
			panic(r)
		}
	}()
	rsp := next(txCtx)
	if len(rsp.Errors) > 0 {
		_ = tx.Rollback()
		return &graphql.Response{Errors: rsp.Errors}
	}
	if err := tx.Commit(); err != nil {
		return &graphql.Response{Errors: gqlerror.List{t.present(ctx, fmt.Errorf("committing transaction: %w", err))}}
	}
	return rsp
}

// ownsTransaction reports whether op is a mutation of exactly one field
// listed in ownTransactionFields.
func ownsTransaction(op *ast.OperationDefinition) bool {
	if op == nil || op.Operation != ast.Mutation || len(op.SelectionSet) != 1 {
		return false
	}
	f, ok := op.SelectionSet[0].(*ast.Field)
	return ok && ownTransactionFields[f.Name]
}

// refuse turns e into the error an operation check (cost, depth,
// introspection switch) returns before anything executes. The presenter
// renders e's code and key; the validation error code it carries until then
// makes gqlgen's transports answer it as a request error (HTTP 422, or 400
// when the client accepts application/graphql-response+json) rather than
// 200.
func refuse(e *apperr.Error) *gqlerror.Error {
	err := &gqlerror.Error{Message: e.Error(), Err: e}
	errcode.Set(err, errcode.ValidationFailed)
	return err
}

// apqNotFoundCode is the extensions.code of gqlgen's PersistedQueryNotFound
// error, as Apollo's persisted-query protocol defines it.
const apqNotFoundCode = "PERSISTED_QUERY_NOT_FOUND"

// presentError renders every resolver error with extensions.code (the HTTP
// status it would have on REST) and extensions.key.
func presentError(opts HandlerOptions) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gqlErr *gqlerror.Error
		if errors.As(err, &gqlErr) && gqlErr.Err == nil {
			// The one exception to numeric codes: Apollo clients resend an
			// automatic persisted query with its text only when they find
			// extensions.code == "PERSISTED_QUERY_NOT_FOUND" (a string), so
			// that code is kept and the key added.
			if gqlErr.Extensions["code"] == apqNotFoundCode {
				gqlErr.Extensions["key"] = "persisted_query_not_found"
				gqlErr.Extensions["request_id"] = opts.RequestID(ctx)
				return gqlErr
			}
			// Parse, validation and input-coercion errors from gqlparser and
			// gqlgen; one that already carries a key keeps its extensions.
			if _, keyed := gqlErr.Extensions["key"]; !keyed {
				gqlErr.Extensions = map[string]any{"code": http.StatusBadRequest, "key": "invalid_graphql_request"}
			}
			gqlErr.Extensions["request_id"] = opts.RequestID(ctx)
			return gqlErr
		}
		out := graphql.DefaultErrorPresenter(ctx, err)
		e, ok := apperr.From(err)
		if !ok {
			e, ok = inputCoercionError(ctx, out)
		}
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
		if e.RetryAfter > 0 {
			ext["retry_after"] = e.RetryAfter // graphql_unavailable.go sends it as Retry-After too
		}
		ext["request_id"] = opts.RequestID(ctx)
		out.Extensions = ext
		return out
	}
}

// inputCoercionError recognises an error raised while an argument of the
// field being resolved was decoded (a custom scalar such as Map or Time
// refusing a value of the wrong kind, which gqlparser's validation lets
// through): its path goes past the field's into the argument. It is the
// caller's mistake, a 400 naming the argument, not an internal error.
func inputCoercionError(ctx context.Context, err *gqlerror.Error) (*apperr.Error, bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || len(err.Path) <= len(fc.Path()) || err.Path[:len(fc.Path())].String() != fc.Path().String() {
		return nil, false
	}
	var names []string
	for _, p := range err.Path[len(fc.Path()):] {
		switch p := p.(type) {
		case ast.PathName:
			names = append(names, string(p))
		case ast.PathIndex:
			names = append(names, strconv.Itoa(int(p)))
		}
	}
	return apperr.InvalidPayload("Argument %s of %s is invalid: %s", strings.Join(names, "."), fc.Field.Name, err.Message), true
}

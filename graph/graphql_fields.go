package graph

import (
	"context"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
)

// resolveInOrder resolves field i of an object (out) at once, in the
// request's goroutine. The generated executor calls it wherever gqlgen
// would call out.ResolveConcurrently (the same arguments after ctx, out and
// the field; the
// rewrite is graph/internal/execrewrite, run by go generate).
//
// gqlgen schedules every field with a resolver (a publication's customer
// and vouchers, a voucher's campaign, …) and, when an object has two or
// more, starts a goroutine for each but the first at out.Dispatch. Here
// those fields answer from what was loaded with the page (edges collected
// per page, sibling loads — graph/graphql_lists.go): the goroutines overlap
// nothing, and each one starts on a small stack that the executor's deep
// call chain then grows by copying — in the publications benchmark (a page
// of 20 with customer and vouchers, docs/benchmarks.md) runtime.newstack
// alone was 17% of the server's CPU. A field under @defer is still
// scheduled by gqlgen (its value travels in a later payload). Otherwise the
// semantics are gqlgen's: a panic becomes an error on the field and Null
// when recoverFromPanic is set, and the object is invalid when a non-null
// field resolves to Null (RequiredNull for a nullable one).
func resolveInOrder(ctx context.Context, out *graphql.FieldSet, field graphql.CollectedField, oc *graphql.OperationContext,
	deferred *graphql.DeferredGroup, i int, recoverFromPanic, nonNull bool, resolve func(ctx context.Context) graphql.Marshaler) {
	if field.IsDeferred() {
		withDeferredFields(deferred)
		out.ResolveConcurrently(oc, deferred, i, recoverFromPanic, nonNull, resolve)
		return
	}
	invalid := graphql.RequiredNull
	if nonNull {
		invalid = graphql.Null
	}
	res := resolveRecovering(ctx, oc, recoverFromPanic, resolve)
	out.Values[i] = res
	if res == invalid {
		atomic.AddUint32(&out.Invalids, 1)
	}
}

// resolveRecovering runs resolve; with recoverFromPanic a panic is
// reported through oc and the field resolves to Null (gqlgen's
// recoverToNull).
func resolveRecovering(ctx context.Context, oc *graphql.OperationContext, recoverFromPanic bool,
	resolve func(ctx context.Context) graphql.Marshaler) (res graphql.Marshaler) {
	if recoverFromPanic {
		defer func() {
			if r := recover(); r != nil {
				oc.Error(ctx, oc.Recover(ctx, r))
				res = graphql.Null
			}
		}()
	}
	return resolve(ctx)
}

package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// marshalListInOrder marshals the objects of a list one after another in
// the request's goroutine. The generated executor calls it wherever gqlgen
// would call graphql.MarshalSliceConcurrently (same arguments; the
// rewrite is graph/internal/execrewrite, run by go generate).
//
// gqlgen starts a goroutine per object of a list so that per-object
// resolvers waiting on the database overlap. Here the objects of a list
// are in memory by the time they are marshalled: the edges a query selects
// are loaded per page (collectListFields, graphql_siblings.go), never per
// object. A goroutine per object then buys nothing and costs its start,
// its stack growth and the garbage collector's scan of it: in the list
// benchmark (50 vouchers a page, docs/benchmarks.md) 15–20% of the
// server's CPU. Each object still gets its own field context (its index
// in the path) and a panic in one becomes an error on that object only, as
// in gqlgen's one-object path. workerLimit is not used; omitPanicHandler
// is honoured.
func marshalListInOrder(ctx context.Context, length int, _ int64, omitPanicHandler bool,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler) graphql.Array {
	ret := make(graphql.Array, length)
	for i := range length {
		index := i
		elemCtx := graphql.WithFieldContext(ctx, &graphql.FieldContext{Index: &index})
		if omitPanicHandler {
			ret[i] = marshalElement(elemCtx, i)
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					graphql.AddError(elemCtx, graphql.Recover(elemCtx, r))
					ret[i] = graphql.Null
				}
			}()
			ret[i] = marshalElement(elemCtx, i)
		}()
	}
	return ret
}

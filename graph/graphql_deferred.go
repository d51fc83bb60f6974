package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// newDeferredGroupWithoutPath is graphql.NewDeferredGroup without the
// group's response path. The generated executor calls it for every object
// it marshals (the rewrite is graph/internal/execrewrite, run by go
// generate), and gqlgen's version builds the object's path each time — a
// slice of path elements and a boxed string per level, 7–8% of the
// server's CPU in the list benchmark (50 vouchers a page,
// docs/benchmarks.md). The path is read only when the group has deferred
// fields to send; the executor then passes the group through
// withDeferredPath, which adds the path from the same context, so a
// deferred payload carries exactly the path gqlgen would have given it.
func newDeferredGroupWithoutPath(ctx context.Context) graphql.DeferredGroup {
	return graphql.DeferredGroup{
		FieldSet: graphql.NewFieldSet(nil),
		Defers:   make(map[string]*graphql.FieldSetView),
		Context:  ctx,
	}
}

// withDeferredPath gives dg the response path of the object it was made
// for, just before the executor processes its deferred fields.
func withDeferredPath(dg graphql.DeferredGroup) graphql.DeferredGroup {
	dg.Path = graphql.GetPath(dg.Context)
	return dg
}

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
// The group's field set and map of views are made only when a field is
// deferred (withDeferredFields, from resolveInOrder): gqlgen makes both for
// every object, and an object without deferred fields reads neither (the
// executor looks at len(Defers), which is 0 for a nil map).
func newDeferredGroupWithoutPath(ctx context.Context) graphql.DeferredGroup {
	return graphql.DeferredGroup{Context: ctx}
}

// withDeferredFields gives dg the field set and map of views gqlgen's
// NewDeferredGroup would have made, when it has none yet: a deferred field
// is about to be added to it.
func withDeferredFields(dg *graphql.DeferredGroup) {
	if dg.FieldSet == nil {
		dg.FieldSet = graphql.NewFieldSet(nil)
	}
	if dg.Defers == nil {
		dg.Defers = make(map[string]*graphql.FieldSetView)
	}
}

// withDeferredPath gives dg the response path of the object it was made
// for, just before the executor processes its deferred fields.
func withDeferredPath(dg graphql.DeferredGroup) graphql.DeferredGroup {
	dg.Path = graphql.GetPath(dg.Context)
	return dg
}

package graph

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/graph/apperr"
)

// DepthLimit refuses, before anything executes, an operation that nests too
// deep (422, key query_too_deep). Depth is the number of fields on the
// longest path; fragments add no level of their own.
//
// Two bounds, because introspection nests differently from data:
//   - Max bounds the schema fields. An introspection field (__schema,
//     __type) counts as one level there, like a leaf.
//   - MaxIntrospection bounds the selection under each __schema or __type,
//     counted from that field. GraphiQL's introspection query (graphql-js
//     getIntrospectionQuery) nests 15 levels there: __schema types fields
//     args type, then TypeRef's chain of nine ofType. A single bound of
//     Max would refuse it; no bound at all would let a hand-made ofType
//     chain nest until the parser's own limit of 1,000 selection sets.
//     (gqlparser's MaxIntrospectionDepth validation rule refuses
//     fields/inputFields/interfaces/possibleTypes nested 3 deep, but not
//     ofType, the one field that nests without a list.)
type DepthLimit struct{ Max, MaxIntrospection int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = DepthLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (DepthLimit) ExtensionName() string { return "DepthLimit" }

// Validate implements graphql.HandlerExtension.
func (d DepthLimit) Validate(graphql.ExecutableSchema) error {
	if d.Max < 1 || d.MaxIntrospection < 1 {
		return errors.New("depth limits must be positive")
	}
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (d DepthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	data, introspection := OperationDepth(oc.Operation)
	tooDeep := func(what string, depth, limit int) *gqlerror.Error {
		return refuse(apperr.New(http.StatusUnprocessableEntity, "query_too_deep", "Query too deep",
			fmt.Sprintf("The %s is nested %d levels deep; the limit is %d", what, depth, limit)))
	}
	if data > d.Max {
		return tooDeep("operation", data, d.Max)
	}
	if introspection > d.MaxIntrospection {
		return tooDeep("introspection selection", introspection, d.MaxIntrospection)
	}
	return nil
}

// OperationDepth returns the depth of op's schema fields and the deepest
// selection under one of its introspection fields (itself included), as
// DepthLimit counts them. Each fragment is walked once.
func OperationDepth(op *ast.OperationDefinition) (data, introspection int) {
	w := depthWalker{data: map[string]int{}, all: map[string]int{}}
	data = w.dataDepth(op.SelectionSet)
	return data, w.introspection
}

type depthWalker struct {
	// data and all hold the depth of each fragment already walked, counted
	// as dataDepth and fullDepth count it.
	data, all map[string]int
	// introspection is the deepest introspection selection met so far.
	introspection int
}

// dataDepth is the depth of set, with introspection fields as leaves; it
// measures each introspection field it meets with fullDepth.
func (w *depthWalker) dataDepth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		d := 0
		switch s := sel.(type) {
		case *ast.Field:
			d = 1
			if s.Name == "__schema" || s.Name == "__type" {
				w.introspection = max(w.introspection, 1+w.fullDepth(s.SelectionSet))
			} else {
				d += w.dataDepth(s.SelectionSet)
			}
		case *ast.InlineFragment:
			d = w.dataDepth(s.SelectionSet)
		case *ast.FragmentSpread:
			d = fragmentDepth(w.data, s, w.dataDepth)
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// fullDepth is the depth of set counting every field.
func (w *depthWalker) fullDepth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		d := 0
		switch s := sel.(type) {
		case *ast.Field:
			d = 1 + w.fullDepth(s.SelectionSet)
		case *ast.InlineFragment:
			d = w.fullDepth(s.SelectionSet)
		case *ast.FragmentSpread:
			d = fragmentDepth(w.all, s, w.fullDepth)
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// fragmentDepth returns the depth of the spread fragment, measured with
// depth once and then remembered in memo. A fragment's depth does not
// depend on where it is spread.
func fragmentDepth(memo map[string]int, s *ast.FragmentSpread, depth func(ast.SelectionSet) int) int {
	if d, ok := memo[s.Name]; ok {
		return d
	}
	// A cycle (validation refuses those before this runs) adds nothing.
	memo[s.Name] = 0
	d := 0
	if s.Definition != nil {
		d = depth(s.Definition.SelectionSet)
	}
	memo[s.Name] = d
	return d
}

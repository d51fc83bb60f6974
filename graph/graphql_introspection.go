package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/graph/apperr"
)

// noIntrospection refuses operations that select __schema or __type, on a
// server whose introspection is switched off (HandlerOptions.Introspection).
// gqlgen alone would run them and fail each field with a plain error, which
// the presenter would show as an internal error; refusing up front answers
// 400 introspection_disabled instead. __typename is not introspection of
// the schema and stays allowed (clients such as Apollo add it everywhere).
type noIntrospection struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = noIntrospection{}

// ExtensionName implements graphql.HandlerExtension.
func (noIntrospection) ExtensionName() string { return "NoIntrospection" }

// Validate implements graphql.HandlerExtension.
func (noIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (noIntrospection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if selectsIntrospection(oc.Operation.SelectionSet, map[string]bool{}) {
		return refuse(apperr.New(http.StatusBadRequest, "introspection_disabled", "Introspection is disabled",
			"This server does not answer __schema and __type queries"))
	}
	return nil
}

// selectsIntrospection reports whether set selects __schema or __type
// anywhere; seen marks fragments already looked into.
func selectsIntrospection(set ast.SelectionSet, seen map[string]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" || selectsIntrospection(s.SelectionSet, seen) {
				return true
			}
		case *ast.InlineFragment:
			if selectsIntrospection(s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if !seen[s.Name] && s.Definition != nil {
				seen[s.Name] = true
				if selectsIntrospection(s.Definition.SelectionSet, seen) {
					return true
				}
			}
		}
	}
	return false
}

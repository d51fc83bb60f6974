package graph

import (
	"github.com/99designs/gqlgen/graphql"
)

// Resolver is the root resolver. It holds no client: every request carries
// its ent client (or transaction) in the context.
type Resolver struct{}

// NewResolver returns the root resolver.
func NewResolver() *Resolver { return &Resolver{} }

// NewSchema returns the executable GraphQL schema over r.
func NewSchema(r *Resolver) graphql.ExecutableSchema {
	return NewExecutableSchema(Config{Resolvers: r})
}

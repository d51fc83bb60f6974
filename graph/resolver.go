package graph

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
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

// client returns the ent client bound to ctx (a transaction's client inside
// a write). Its absence is a wiring bug, reported as an internal error.
func client(ctx context.Context) (*ent.Client, error) {
	c := ent.FromContext(ctx)
	if c == nil {
		return nil, fmt.Errorf("graph: no ent client in context")
	}
	return c, nil
}

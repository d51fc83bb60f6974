package graph

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/graph/apperr"
)

// SchemaIntrospectionCost is what a __schema field costs on top of its
// selection (see CostLimit).
const SchemaIntrospectionCost = 100

// CostLimit refuses, before anything executes, an operation whose cost is
// above Max (422, key query_too_complex).
//
// Cost rule: every selected field costs 1 plus the cost of its selection —
// schema fields and introspection fields (__schema, __type, __typename and
// every field below them) alike; a custom complexity the executable schema
// defines for a schema field (gqlgen's Complexity hook) replaces that sum.
// Lists are not multiplied by their length: connections are bounded by
// their page size, introspection lists by the schema. A fragment costs what
// its selection costs, once per spread.
//
// __schema costs SchemaIntrospectionCost more, because it is the one field
// whose answer grows with the whole schema: `__schema{types{name
// fields{name}}}` costs 5 fields but answers ~41 KB, so at 1 per field an
// operation of 199 such aliases (8 MB of answer) would pass. With the
// surcharge an operation holds at most 9 __schema fields; GraphiQL's full
// introspection query costs 327 (291 with graphql-js 16's seven ofType
// levels; rest TestGraphQLGraphiQLIntrospection), so it fits with room to
// spare, and 1,000 aliased __schema fields cost 105,000.
//
// gqlgen's complexity.Calculate is not used: it skips __schema and
// everything below it, and it walks a fragment again at every spread, so a
// few lines of fragments that each spread the next one twice take
// exponential time. This walk computes each fragment once per operation.
//
// The cost of an operation without variables depends on its text alone,
// so it is computed once per text (an LRU of costCacheSize texts, like
// the parsed-query cache).
type CostLimit struct {
	Max   int
	es    graphql.ExecutableSchema
	costs *lru.LRU[int]
}

// costCacheSize is how many operations' costs CostLimit remembers.
const costCacheSize = 1000

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = &CostLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (*CostLimit) ExtensionName() string { return "CostLimit" }

// Validate implements graphql.HandlerExtension.
func (c *CostLimit) Validate(es graphql.ExecutableSchema) error {
	if c.Max < 1 {
		return errors.New("cost limit must be positive")
	}
	c.es = es
	c.costs = lru.New[int](costCacheSize)
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (c *CostLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if cost := c.cost(ctx, oc); cost > c.Max {
		return refuse(apperr.New(http.StatusUnprocessableEntity, "query_too_complex", "Query too complex",
			fmt.Sprintf("The operation has complexity %d; the limit is %d", cost, c.Max)))
	}
	return nil
}

// cost is OperationCost of oc's operation, from the cache when the
// operation has no variables.
func (c *CostLimit) cost(ctx context.Context, oc *graphql.OperationContext) int {
	if len(oc.Variables) > 0 || oc.RawQuery == "" || c.costs == nil {
		return OperationCost(ctx, c.es, oc.Operation, oc.Variables)
	}
	key := oc.OperationName + "\x00" + oc.RawQuery
	if cost, ok := c.costs.Get(ctx, key); ok {
		return cost
	}
	cost := OperationCost(ctx, c.es, oc.Operation, oc.Variables)
	c.costs.Add(ctx, key, cost)
	return cost
}

// OperationCost is the cost of op under CostLimit's rule, saturating at the
// largest int.
func OperationCost(ctx context.Context, es graphql.ExecutableSchema, op *ast.OperationDefinition, vars map[string]any) int {
	w := costWalker{ctx: ctx, es: es, vars: vars, fragments: map[string]int{}}
	return w.selectionSet(op.SelectionSet)
}

type costWalker struct {
	ctx  context.Context
	es   graphql.ExecutableSchema
	vars map[string]any
	// fragments holds the cost of each fragment already walked.
	fragments map[string]int
}

func (w *costWalker) selectionSet(set ast.SelectionSet) int {
	total := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			total = addCost(total, w.field(s))
		case *ast.InlineFragment:
			total = addCost(total, w.selectionSet(s.SelectionSet))
		case *ast.FragmentSpread:
			total = addCost(total, w.fragment(s))
		}
	}
	return total
}

func (w *costWalker) fragment(s *ast.FragmentSpread) int {
	if cost, ok := w.fragments[s.Name]; ok {
		return cost
	}
	// A cycle (validation refuses those before this runs) adds nothing.
	w.fragments[s.Name] = 0
	cost := 0
	if s.Definition != nil {
		cost = w.selectionSet(s.Definition.SelectionSet)
	}
	w.fragments[s.Name] = cost
	return cost
}

func (w *costWalker) field(f *ast.Field) int {
	children := w.selectionSet(f.SelectionSet)
	cost := addCost(1, children)
	if custom := w.custom(f, children); custom >= 1 {
		cost = custom
	}
	if f.Name == "__schema" {
		cost = addCost(cost, SchemaIntrospectionCost)
	}
	return cost
}

// custom is the schema's own complexity for f (0 when it defines none); on
// an interface or union the most expensive implementation counts, as in
// gqlgen.
func (w *costWalker) custom(f *ast.Field, children int) int {
	parent := f.ObjectDefinition
	if parent == nil || strings.HasPrefix(f.Name, "__") || strings.HasPrefix(parent.Name, "__") {
		return 0
	}
	args := f.ArgumentMap(w.vars)
	types := []*ast.Definition{parent}
	if parent.IsAbstractType() {
		types = w.es.Schema().GetPossibleTypes(parent)
	}
	best := 0
	for _, t := range types {
		if c, ok := w.es.Complexity(w.ctx, t.Name, f.Name, children, args); ok && c > best {
			best = c
		}
	}
	return best
}

// addCost adds two costs, ignoring negative ones and saturating instead of
// overflowing.
func addCost(a, b int) int {
	a, b = max(a, 0), max(b, 0)
	if s := a + b; s >= a {
		return s
	}
	return int(^uint(0) >> 1)
}

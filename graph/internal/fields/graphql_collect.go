package fields

import (
	"context"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"
)

// CollectList runs entgql's field collection (the generated
// CollectFields of an ent query) for the items of a list payload such as
// CustomerList.data: the edges the GraphQL query selects under each item
// (publications, vouchers, customer, …) are then loaded with the page, one
// query per edge for the whole page, and only the columns the query asks
// for are read. Root connections get the same from Paginate; the REST
// shapes and other callers without a GraphQL field in ctx are left alone.
//
// collect receives a context whose current field is the list's items field
// (named field, under any alias), which is where CollectFields starts.
func CollectList(ctx context.Context, field string, collect func(context.Context) error) error {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || !graphql.HasOperationContext(ctx) {
		return nil
	}
	oc := graphql.GetOperationContext(ctx)
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, nil) {
		if f.Name != field {
			continue
		}
		items := &graphql.FieldContext{Parent: fc, Object: fc.Field.Definition.Type.Name(), Field: f}
		if err := collect(graphql.WithFieldContext(ctx, items)); err != nil {
			return err
		}
	}
	return nil
}

// Selected reports whether the GraphQL query asks for any of names on the
// field being resolved (a list payload's total, say), so a use case can skip
// work nobody reads; always true outside GraphQL (REST shows everything).
func Selected(ctx context.Context, names ...string) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || !graphql.HasOperationContext(ctx) {
		return true
	}
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, nil) {
		if slices.Contains(names, f.Name) {
			return true
		}
	}
	return false
}

// CollectWithoutConnections runs entgql's field collection (an ent query's
// CollectFields) for the object field being resolved, leaving out its
// connections: the query then reads only the columns the GraphQL query
// selects on the object (all of them when it selects a field that is not a
// column), and the object's connections (a campaign's vouchers, …) resolve
// with their own page query (edges.go). Collecting them here would make
// entgql load the page through a window over every child of the parent —
// every voucher of the campaign numbered to keep the first 50. Outside
// GraphQL nothing is collected (REST shows the whole object).
func CollectWithoutConnections[Q any](ctx context.Context, collect func(context.Context, ...string) (Q, error)) error {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || !graphql.HasOperationContext(ctx) {
		return nil
	}
	field := fc.Field
	field.Selections = nil
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, nil) {
		if f.Definition != nil && strings.HasSuffix(f.Definition.Type.Name(), "Connection") {
			continue
		}
		// The field as collected: its sub-selections merged from every
		// fragment that selects it.
		kept := *f.Field
		kept.SelectionSet = f.Selections
		field.Selections = append(field.Selections, &kept)
	}
	_, err := collect(graphql.WithFieldContext(ctx, &graphql.FieldContext{Parent: fc.Parent, Object: fc.Object,
		Field: field, Args: fc.Args, IsMethod: fc.IsMethod, IsResolver: fc.IsResolver}))
	return err
}

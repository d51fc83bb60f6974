package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// The objects of a list are marshalled in order, each with its index in
// its field context; a panic in one object makes that object null with an
// error on its path, and the others are kept.
func TestListObjectsAreMarshalledInOrderAndAPanicStaysInItsObject(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter,
		func(ctx context.Context, err any) error { return errors.New(fmt.Sprint("recovered: ", err)) })
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{}})
	var order []int
	got := marshalListInOrder(ctx, 4, 4, false, func(ctx context.Context, i int) graphql.Marshaler {
		order = append(order, *graphql.GetFieldContext(ctx).Index) // no lock: one goroutine
		if i == 2 {
			panic("broken object")
		}
		return graphql.MarshalInt(i * 10)
	})
	if !slices.Equal(order, []int{0, 1, 2, 3}) {
		t.Errorf("marshalled in the order %v", order)
	}
	var out bytes.Buffer
	got.MarshalGQL(&out)
	if out.String() != "[0,10,null,30]" {
		t.Errorf("list %s, want [0,10,null,30]", out.String())
	}
	errs := graphql.GetErrors(ctx)
	if len(errs) != 1 || errs[0].Message != "recovered: broken object" || fmt.Sprint(errs[0].Path) != "[2]" {
		t.Errorf("errors %v (paths %v), want one on [2]", errs, errs)
	}
}

// A deferred group made without its path gets, when the executor
// processes it, the path gqlgen's own constructor would have given it.
func TestDeferredGroupGetsGqlgensPathWhenProcessed(t *testing.T) {
	ctx := graphql.WithFieldContext(context.Background(), &graphql.FieldContext{Field: graphql.CollectedField{Field: &ast.Field{Alias: "vouchers"}}})
	index := 3
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Index: &index})
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{Field: &ast.Field{Alias: "node"}}})
	lazy := newDeferredGroupWithoutPath(ctx)
	if lazy.Path != nil {
		t.Fatalf("path %v built before it is needed", lazy.Path)
	}
	want := graphql.NewDeferredGroup(ctx).Path
	if got := withDeferredPath(lazy).Path; got.String() != want.String() || got.String() != "vouchers[3].node" {
		t.Errorf("path %q, want gqlgen's %q (vouchers[3].node)", got.String(), want.String())
	}
}

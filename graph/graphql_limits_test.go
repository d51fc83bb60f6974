package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// operation parses and validates query against the schema.
func operation(t *testing.T, query string) *ast.OperationDefinition {
	t.Helper()
	doc, errs := gqlparser.LoadQuery(NewSchema(NewResolver()).Schema(), query)
	if errs != nil {
		t.Fatalf("query does not validate: %v", errs)
	}
	return doc.Operations[0]
}

func TestOperationCost(t *testing.T) {
	es := NewSchema(NewResolver())
	cases := []struct {
		query string
		want  int
	}{
		{`{ campaigns { totalCount } }`, 2},
		{`{ __typename }`, 1},
		{`{ __type(name: "Campaign") { name fields { name } } }`, 4},
		// __schema costs its surcharge on top of its fields.
		{`{ __schema { queryType { name } } }`, 3 + SchemaIntrospectionCost},
		{`{ a: __schema { types { name } } b: __schema { types { name } } }`, 2 * (3 + SchemaIntrospectionCost)},
		// A fragment costs what its selection costs, at each spread.
		{`query { ...Q ...Q } fragment Q on Query { campaigns { totalCount } }`, 4},
		{`query { campaigns { edges { node { ...C } } } } fragment C on Campaign { id name }`, 5},
	}
	for _, tc := range cases {
		if got := OperationCost(context.Background(), es, operation(t, tc.query), nil); got != tc.want {
			t.Errorf("cost of %s = %d, want %d", tc.query, got, tc.want)
		}
	}
}

// TestOperationCostWalksEachFragmentOnce: sixty fragments that each spread
// the next one twice describe 2^60 fields; walked once per spread (as
// gqlgen's complexity.Calculate walks them) this test would never end.
func TestOperationCostWalksEachFragmentOnce(t *testing.T) {
	var q strings.Builder
	q.WriteString("query { ...F0 }\n")
	const n = 60
	for i := range n {
		fmt.Fprintf(&q, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&q, "fragment F%d on Query { __typename }\n", n)
	op := operation(t, q.String())
	if got := OperationCost(context.Background(), NewSchema(NewResolver()), op, nil); got != 1<<n {
		t.Errorf("cost = %d, want 2^%d", got, n)
	}
	if data, _ := OperationDepth(op); data != 1 {
		t.Errorf("depth = %d, want 1", data)
	}
}

func TestOperationDepth(t *testing.T) {
	ofTypes := func(n int) string {
		return "{ __type(name: \"Campaign\") { " + strings.Repeat("ofType { ", n) + "name" + strings.Repeat(" }", n) + " } }"
	}
	cases := []struct {
		query               string
		data, introspection int
	}{
		{`{ campaigns { edges { node { voucher { codeConfig { length } } } } } }`, 6, 0},
		{`query { campaigns { ...E } } fragment E on CampaignConnection { edges { node { id } } }`, 4, 0},
		// Introspection fields are leaves for the data depth and measured
		// on their own.
		{`{ __typename campaigns { totalCount } }`, 2, 0},
		{`{ __schema { types { fields { type { name } } } } }`, 1, 5},
		{ofTypes(9), 1, 11},
		{ofTypes(900), 1, 902},
		{`query { ...S } fragment S on Query { __schema { types { ...T } } } fragment T on __Type { ofType { ofType { name } } }`, 1, 5},
	}
	for _, tc := range cases {
		data, introspection := OperationDepth(operation(t, tc.query))
		if data != tc.data || introspection != tc.introspection {
			t.Errorf("depth of %.80s = %d, %d; want %d, %d", tc.query, data, introspection, tc.data, tc.introspection)
		}
	}
}

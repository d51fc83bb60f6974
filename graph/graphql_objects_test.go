package graph

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestObjectFieldsMarshalAsGqlgen: objectFields writes an object exactly
// as gqlgen's FieldSet.MarshalGQL does — fields in order, a repeated alias
// written once (its first value), aliases escaped — below and above
// objectFieldsScan fields.
func TestObjectFieldsMarshalAsGqlgen(t *testing.T) {
	for _, aliases := range [][]string{
		{},
		{"a"},
		{"a", "b", "a", "c", "b"},
		{"we\"ird", "tab\tbed", "ünï", "we\"ird"},
		manyAliases(objectFieldsScan + 10),
	} {
		fields := make([]graphql.CollectedField, len(aliases))
		for i, a := range aliases {
			fields[i] = graphql.CollectedField{Field: &ast.Field{Alias: a, Name: a}}
		}
		fs := graphql.NewFieldSet(fields)
		for i := range fields {
			fs.Values[i] = graphql.MarshalInt(i)
		}
		var want, got bytes.Buffer
		fs.MarshalGQL(&want)
		objectFields{fs, fields}.MarshalGQL(&got)
		if got.String() != want.String() {
			t.Errorf("aliases %q: objectFields wrote %s, gqlgen %s", aliases, got.String(), want.String())
		}
	}
}

// manyAliases returns n aliases, every third one a repeat.
func manyAliases(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("f%d", i-i%3)
	}
	return out
}

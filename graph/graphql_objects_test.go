package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"

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

// TestZeroTimeIsANullAtItsPath: a scalar read from a struct is marshalled
// without a field context of its own (execrewrite), except a Time! holding
// the zero time, which gqlgen answers as a null in a non-null field: the
// error still names the field's path, as with the field's context.
func TestZeroTimeIsANullAtItsPath(t *testing.T) {
	db, ctx := projectContext(t)
	c, err := ent.FromContext(ctx).Customer.Create().SetSourceID("timeless").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL.ExecContext(ctx, "UPDATE customers SET created_at = $1 WHERE id = $2", time.Time{}, c.ID); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"query": `{ customerList { data { id sourceID createdAt } } }`})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rw := httptest.NewRecorder()
	testHandler().ServeHTTP(rw, req)
	var resp struct {
		Errors []struct {
			Message string `json:"message"`
			Path    []any  `json:"path"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(rw.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Errors) != 1 || fmt.Sprint(resp.Errors[0].Path) != "[customerList data 0 createdAt]" {
		t.Fatalf("want one error at customerList.data.0.createdAt, got %s", rw.Body.String())
	}
}

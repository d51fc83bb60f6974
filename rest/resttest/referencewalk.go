package resttest

// Small tools referencepatch.go patches the reference documents with:
// making a member nullable or optional, and walking a document's schemas.

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// makeNullable lets s's member name be null, on a copy of its schema so
// that other users of a shared component are not changed.
func makeNullable(s *openapi3.Schema, name string) {
	p := s.Properties[name]
	if p == nil || p.Value == nil || p.Value.Nullable {
		return
	}
	c := *p.Value
	c.Nullable = true
	s.Properties[name] = &openapi3.SchemaRef{Value: &c}
}

// dropRequired removes names from s's required list.
func dropRequired(s *openapi3.Schema, names ...string) {
	s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(r string) bool { return slices.Contains(names, r) })
}

// walkResponses calls fn on every schema reachable from the responses of
// every operation of path.
func walkResponses(doc *openapi3.T, path string, fn func(*openapi3.Schema)) {
	item := doc.Paths.Value(path)
	if item == nil {
		return
	}
	seen := map[*openapi3.Schema]bool{}
	for _, op := range item.Operations() {
		for _, r := range op.Responses.Map() {
			if r.Value == nil {
				continue
			}
			for _, m := range r.Value.Content {
				walkSchema(m.Schema, seen, fn)
			}
		}
	}
}

// walkAll calls fn on every schema of the document's components and
// responses.
func walkAll(doc *openapi3.T, fn func(*openapi3.Schema)) {
	seen := map[*openapi3.Schema]bool{}
	for _, s := range doc.Components.Schemas {
		walkSchema(s, seen, fn)
	}
	for path := range doc.Paths.Map() {
		walkResponses(doc, path, fn)
	}
}

func walkSchema(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool, fn func(*openapi3.Schema)) {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	s := ref.Value
	seen[s] = true
	fn(s)
	for _, p := range s.Properties {
		walkSchema(p, seen, fn)
	}
	walkSchema(s.Items, seen, fn)
	walkSchema(s.AdditionalProperties.Schema, seen, fn)
	for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf, s.AllOf} {
		for _, b := range list {
			walkSchema(b, seen, fn)
		}
	}
}

package schema

// ResolverColumns is a type's annotation naming, for each GraphQL field of
// the type that has a resolver (not a column), the columns its resolver
// reads. entgql's field collection (ent/template/gql_collection.tmpl) then
// selects those columns for it; without the annotation a query selecting
// such a field reads every column of the type.
type ResolverColumns map[string][]string

// Name implements schema.Annotation.
func (ResolverColumns) Name() string { return "ResolverColumns" }

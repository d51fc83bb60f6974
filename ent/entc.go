//go:build ignore

// entc.go generates the ent client and, through entgql, the GraphQL schema
// (ent.graphqls) that gqlgen serves. Run it from the repository root
// (`go generate ./...` does).
package main

import (
	"log"
	"slices"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	ex, err := entgql.NewExtension(
		entgql.WithTemplates(templates()...), // first: WithWhereInputs adds to them
		entgql.WithConfigPath("gqlgen.yml"),
		entgql.WithSchemaGenerator(),
		entgql.WithSchemaPath("graph/ent.graphqls"),
		entgql.WithWhereInputs(true),
		entgql.WithNodeDescriptor(false),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	err = entc.Generate("./ent/schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeatureLock,
			gen.FeatureUpsert,
			gen.FeatureExecQuery,
			gen.FeatureIntercept,
		},
	}, entc.Extensions(ex), entc.TemplateFiles("ent/template/rowscan.tmpl", "ent/template/countcap.tmpl", "ent/template/joinedge.tmpl", "ent/template/decode.tmpl", "ent/template/query.tmpl", "ent/template/inids.tmpl"))
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}

// templates are entgql's, with its pagination replaced by
// ent/template/gql_pagination.tmpl: a page costs O(page) — hasNextPage
// from the LIMIT n+1 row instead of a count of every matching row whenever
// pageInfo is selected, and totalCount from a maintained counter or a
// capped count (ent/template/countcap.tmpl) only when it is selected.
func templates() []*gen.Template {
	pagination := gen.MustParse(gen.NewTemplate("template/pagination.tmpl").
		Funcs(entgql.TemplateFuncs).
		ParseFiles("ent/template/gql_pagination.tmpl"))
	// entgql's field collection, with the columns of resolver fields
	// (ent/template/gql_collection.tmpl).
	collection := gen.MustParse(gen.NewTemplate("template/collection.tmpl").
		Funcs(entgql.TemplateFuncs).
		ParseFiles("ent/template/gql_collection.tmpl"))
	all := slices.Clone(entgql.AllTemplates)
	for i, t := range all {
		switch t {
		case entgql.PaginationTemplate:
			all[i] = pagination
		case entgql.CollectionTemplate:
			all[i] = collection
		}
	}
	return all
}

//go:build ignore

// entc.go generates the ent client and, through entgql, the GraphQL schema
// (ent.graphqls) that gqlgen serves. Run it from the repository root
// (`go generate ./...` does).
package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	ex, err := entgql.NewExtension(
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
	}, entc.Extensions(ex), entc.TemplateFiles("ent/template/rowscan.tmpl"))
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}

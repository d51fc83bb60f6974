package graph

//go:generate go -C .. tool gqlgen generate
//go:generate go run ./internal/execrewrite

package graph

//go:generate go -C .. tool gqlgen generate

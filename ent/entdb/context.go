package entdb

import "context"

type dialectKey struct{}

// WithDialect records the SQL dialect of the ent client in ctx, for the few
// use cases that must branch on it (row locks, bulk inserts, pattern
// matching).
func WithDialect(ctx context.Context, dialect string) context.Context {
	return context.WithValue(ctx, dialectKey{}, dialect)
}

// DialectFromContext returns the dialect recorded by WithDialect ("" if none).
func DialectFromContext(ctx context.Context) string {
	d, _ := ctx.Value(dialectKey{}).(string)
	return d
}

package graph

import "context"

type requestIDKey struct{}

// WithRequestID records the id of the current request in ctx; errors, logs
// and jobs refer to it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestIDFromContext returns the id of the request in ctx ("" outside a request).
func RequestIDFromContext(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

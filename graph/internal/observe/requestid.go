package observe

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

// MaxRequestIDLength bounds a request id a caller may choose.
const MaxRequestIDLength = 128

// ValidRequestID reports whether id, a caller's X-Request-Id, is a sane
// token to keep: 1 to MaxRequestIDLength characters of [A-Za-z0-9._:-].
// Anything else (empty, longer, spaces, quotes, control characters) is
// replaced by a generated id, so logs and error bodies never carry it.
func ValidRequestID(id string) bool {
	if id == "" || len(id) > MaxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

package clock

import (
	"context"
	"time"
)

type nowKey struct{}

// WithNow makes At(ctx) answer t: a test (or a job replaying a day) moves
// the clock of the use cases that take their time from the context.
func WithNow(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, t.UTC().Truncate(time.Millisecond))
}

// At is the time of ctx: the one set by WithNow, else Now().
func At(ctx context.Context) time.Time {
	if t, ok := ctx.Value(nowKey{}).(time.Time); ok {
		return t
	}
	return Now()
}

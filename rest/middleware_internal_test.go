package rest

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestScopedContext: a scoped context answers the server scope's values
// first, then the request's own; values added on top of it win; its
// cancellation, deadline and cause are the request context's, and a
// deadline set under it is propagated to and cancelled with it.
func TestScopedContext(t *testing.T) {
	type key string
	values := context.WithValue(context.WithValue(context.Background(), key("client"), "server's"), key("shared"), "server's")
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), key("span"), "request's"))
	var ctx context.Context = &scopedContext{Context: parent, values: values}
	for k, want := range map[key]any{"client": "server's", "span": "request's", "missing": nil} {
		if got := ctx.Value(k); got != want {
			t.Errorf("Value(%q) = %v, want %v", k, got, want)
		}
	}
	if got := context.WithValue(ctx, key("client"), "tx's").Value(key("client")); got != "tx's" {
		t.Errorf("a value added on top: %v", got)
	}
	timed, stop := context.WithTimeout(ctx, time.Hour)
	defer stop()
	if _, ok := timed.Deadline(); !ok || ctx.Done() == nil || timed.Value(key("client")) != "server's" {
		t.Fatal("the deadline or the scope's values are lost under WithTimeout")
	}
	cause := errors.New("client went away")
	cancel(cause)
	select {
	case <-timed.Done():
	case <-time.After(time.Second):
		t.Fatal("cancelling the request context did not reach a context under the scoped one")
	}
	if !errors.Is(context.Cause(timed), cause) || !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("cause %v, err %v", context.Cause(timed), ctx.Err())
	}
}

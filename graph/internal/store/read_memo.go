package store

import (
	"context"
	"sync"
)

// readMemo remembers rows a use case read once in its transaction (a
// loyalty program, its tiers), so the steps it calls while it holds a row
// lock do not read them again: a points move reads its program's settings
// before it locks the card and only the card's own rows after. It is
// opt-in (WithReadMemo): a use case that changes what it remembered must
// not take one.
type readMemo struct {
	mu     sync.Mutex
	values map[string]any
}

type readMemoKey struct{}

// WithReadMemo gives ctx an empty read memo; the memo lives as long as ctx.
// Take it only where nothing the memo holds changes meanwhile.
func WithReadMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, readMemoKey{}, &readMemo{values: map[string]any{}})
}

// Remembered returns the value remembered under key in ctx's read memo,
// or load's (remembered when it succeeds). Without a memo it always loads.
func Remembered[T any](ctx context.Context, key string, load func() (T, error)) (T, error) {
	m, _ := ctx.Value(readMemoKey{}).(*readMemo)
	if m == nil {
		return load()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.values[key].(T); ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	m.values[key] = v
	return v, nil
}

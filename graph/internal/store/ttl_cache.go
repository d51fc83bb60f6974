package store

import (
	"context"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent"
)

// ttlCache is a per-process cache of rows read from the database, each
// trusted for ttl. A change made by this process forgets its entry at once
// (forgetAtCommit); a change made by another process is seen when the
// entry expires. It holds at most max entries and is emptied when full
// (entries are cheap to read again, and only keys that exist are stored).
type TTLCache[V any] struct {
	ttl     time.Duration
	max     int
	mu      sync.RWMutex
	entries map[string]ttlEntry[V]
}

type ttlEntry[V any] struct {
	value   V
	expires time.Time
}

// NewTTLCache returns an empty cache whose entries live ttl, at most max of them.
func NewTTLCache[V any](ttl time.Duration, max int) *TTLCache[V] {
	return &TTLCache[V]{ttl: ttl, max: max, entries: map[string]ttlEntry[V]{}}
}

// Get returns the value stored under key if it is still fresh at now.
func (c *TTLCache[V]) Get(key string, now time.Time) (V, bool) {
	c.mu.RLock()
	e, ok := c.entries[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Put stores value under key, read at now.
func (c *TTLCache[V]) Put(key string, value V, now time.Time) {
	c.mu.Lock()
	if len(c.entries) >= c.max {
		clear(c.entries)
	}
	c.entries[key] = ttlEntry[V]{value: value, expires: now.Add(c.ttl)}
	c.mu.Unlock()
}

func (c *TTLCache[V]) forget(key string) {
	c.mu.Lock()
	delete(c.entries, key)
	c.mu.Unlock()
}

// ForgetAtCommit drops key now and again when the transaction in ctx
// commits, so no request that raced with the change keeps the old value.
func (c *TTLCache[V]) ForgetAtCommit(ctx context.Context, key string) {
	c.forget(key)
	if tx := ent.TxFromContext(ctx); tx != nil {
		tx.OnCommit(func(next ent.Committer) ent.Committer {
			return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
				err := next.Commit(ctx, tx)
				c.forget(key)
				return err
			})
		})
	}
}

// Clear forgets every entry.
func (c *TTLCache[V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
}

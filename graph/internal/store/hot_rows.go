package store

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
)

// HotRowWaiters is how many requests of one process may be on the
// database at once for the same voucher (per project and code) on the
// paths that write its row: redemptions and validations that lock a
// session. The others wait here, in Go, without a pooled connection, until
// one of those leaves or their deadline passes (409 resource_locked).
//
// Why: a request waiting for a row lock holds a pooled connection for the
// whole wait. When a row is held long (a stuck transaction, a slow
// Client's session, a hot code under a burst), every request for that code
// would take one of the pool's connections and wait on the row, and other
// traffic would have none left: 48 clients on one locked code took other
// requests from 150 to about 2 per second. With the bound, a locked row
// costs at most HotRowWaiters connections per code, and each of them at
// most the lock timeout (PROMO_DB_LOCK_TIMEOUT). Two keep the row busy
// when it is merely hot: while one request writes, the next is ready.
var HotRowWaiters = 2

// hotRows are the process's voucher rows with requests on them.
var hotRows = &rowGate{rows: map[string]*gatedRow{}}

// rowGate hands out HotRowWaiters slots per key.
type rowGate struct {
	mu   sync.Mutex
	rows map[string]*gatedRow
}

type gatedRow struct {
	slots chan struct{}
	users int // requests holding or waiting for a slot
}

// EnterRows takes a slot of each voucher row the request writes and
// returns the function that gives them back. On SQLite it takes none: it
// has no row locks, its writers queue for the one writer
// (ent/entdb/sqlite_writers.go). Inside a caller's transaction it takes none: that transaction already holds its connection (and maybe
// row locks), so it must never wait here. Keys are taken in sorted order,
// so two requests over the same codes cannot wait for each other.
func EnterRows(ctx context.Context, voucherIDs []string) (release func(), err error) {
	if ent.TxFromContext(ctx) != nil || HotRowWaiters <= 0 || !IsPostgres(ctx) {
		return func() {}, nil
	}
	v, _ := viewer.FromContext(ctx)
	keys := make([]string, 0, len(voucherIDs))
	for _, id := range voucherIDs {
		keys = append(keys, v.ProjectID+"\x00"+id)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	held := make([]string, 0, len(keys))
	release = func() {
		for _, k := range held {
			hotRows.leave(k)
		}
	}
	for _, k := range keys {
		if err := hotRows.enter(ctx, k); err != nil {
			release()
			return nil, err
		}
		held = append(held, k)
	}
	return release, nil
}

// enter waits for a slot of key until ctx ends: a request that waited its
// whole deadline for a row others are writing answers 409 resource_locked.
func (g *rowGate) enter(ctx context.Context, key string) error {
	g.mu.Lock()
	r := g.rows[key]
	if r == nil {
		r = &gatedRow{slots: make(chan struct{}, HotRowWaiters)}
		g.rows[key] = r
	}
	r.users++
	g.mu.Unlock()
	select {
	case r.slots <- struct{}{}:
		return nil
	default:
	}
	select {
	case r.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		g.forget(key, r)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return apperr.Locked()
		}
		return ctx.Err()
	}
}

// leave gives back a slot of key.
func (g *rowGate) leave(key string) {
	g.mu.Lock()
	r := g.rows[key]
	g.mu.Unlock()
	<-r.slots
	g.forget(key, r)
}

// forget drops a user of r, and r itself when it has none left.
func (g *rowGate) forget(key string, r *gatedRow) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r.users--; r.users == 0 {
		delete(g.rows, key)
	}
}

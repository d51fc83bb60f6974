package rest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/idempotencykey"
	"github.com/promoengine/promoengine/ent/predicate"
)

// The life of a key this request holds (idemStore, idempotency_store.go):
// renewing its lease, storing the answer, or releasing it.

// renew extends the lease of a row this request holds.
func (s idemStore) renew(ctx context.Context, row *ent.IdempotencyKey) error {
	return s.write(ctx, func(c *ent.Client) error {
		return c.IdempotencyKey.Update().Where(held(row)...).
			SetLockedUntil(clock().Add(idempotencyLease)).Exec(ctx)
	})
}

// keepLease renews the lease of row every third of idempotencyLease
// until the returned stop is called, so a long request keeps its key and
// only a dead process lets the lease lapse.
func (s idemStore) keepLease(ctx context.Context, row *ent.IdempotencyKey) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(idempotencyLease / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				_ = s.renew(ctx, row) // a missed renewal is retried on the next tick
			}
		}
	}()
	return func() { close(done); <-exited }
}

// finish stores the answer of the request that holds row. It reports
// false when the request no longer held the key (its lease was taken
// over), so the answer was not stored.
func (s idemStore) finish(ctx context.Context, row *ent.IdempotencyKey, status int, contentType, body string) (bool, error) {
	var n int
	err := s.write(ctx, func(c *ent.Client) error {
		var err error
		n, err = c.IdempotencyKey.Update().Where(held(row)...).
			SetState(idempotencykey.StateDONE).SetLockedUntil(clock()).
			SetResponseStatus(status).SetResponseContentType(contentType).SetResponseBody(body).
			Save(ctx)
		return err
	})
	return n == 1, wrapIdem("storing idempotent response", err)
}

// release deletes the row this request holds, so a retry acts again.
func (s idemStore) release(ctx context.Context, row *ent.IdempotencyKey) error {
	return wrapIdem("releasing idempotency key", s.write(ctx, func(c *ent.Client) error {
		_, err := c.IdempotencyKey.Delete().Where(held(row)...).Exec(ctx)
		return err
	}))
}

// held are the predicates of row while this request holds it.
func held(row *ent.IdempotencyKey) []predicate.IdempotencyKey {
	return []predicate.IdempotencyKey{idempotencykey.ID(row.ID), idempotencykey.LockID(row.LockID),
		idempotencykey.StateEQ(idempotencykey.StateIN_PROGRESS)}
}

func wrapIdem(what string, err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

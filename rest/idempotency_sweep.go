package rest

import (
	"context"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/idempotencykey"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// Deleting expired idempotency keys (idemStore, idempotency_store.go).

// deleteExpired deletes row if it is still expired, and sweeps others.
func (s idemStore) deleteExpired(ctx context.Context, row *ent.IdempotencyKey) error {
	err := s.write(ctx, func(c *ent.Client) error {
		_, err := c.IdempotencyKey.Delete().
			Where(idempotencykey.ID(row.ID), idempotencykey.ExpiresAtLTE(clock())).Exec(ctx)
		return err
	})
	if err != nil {
		return wrapIdem("deleting expired idempotency key", err)
	}
	s.sweep(ctx)
	return nil
}

// sweep deletes up to idempotencySweepBatch expired keys of every
// project. It is best effort: a failure only leaves rows for a later sweep.
func (s idemStore) sweep(ctx context.Context) {
	sys := viewer.NewSystemContext(context.WithoutCancel(ctx))
	sys, cancel := context.WithTimeout(sys, 5*time.Second)
	defer cancel()
	now := clock()
	ids, err := s.client.IdempotencyKey.Query().Where(idempotencykey.ExpiresAtLTE(now)).
		Limit(idempotencySweepBatch).IDs(sys)
	if err != nil || len(ids) == 0 {
		return
	}
	_ = s.write(sys, func(c *ent.Client) error {
		_, err := c.IdempotencyKey.Delete().
			Where(idempotencykey.IDIn(ids...), idempotencykey.ExpiresAtLTE(now)).Exec(sys)
		return err
	})
}

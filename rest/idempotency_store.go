package rest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/idempotencykey"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Tuning of idempotency keys (docs/idempotency.md).
const (
	// idempotencyTTL is how long a key and its answer are kept.
	idempotencyTTL = 24 * time.Hour
	// idempotencyLease is how long an IN_PROGRESS key stays locked without
	// news from the request that holds it; the holder renews it every
	// third of it, so only a dead process lets it lapse.
	idempotencyLease = 60 * time.Second
	// idempotencyWait bounds how long a request waits for another one
	// holding its key before answering 409 idempotency_key_in_use.
	idempotencyWait = 5 * time.Second
	// idempotencyAnswerMargin is the time before the request's deadline
	// (PROMO_REQUEST_TIMEOUT) when a waiting request stops waiting and
	// answers 409 idempotency_key_in_use.
	idempotencyAnswerMargin = 500 * time.Millisecond
	// idempotencyPoll is how often a waiting request reads the key again.
	idempotencyPoll = 50 * time.Millisecond
	// idempotencySweepBatch bounds the expired rows one sweep deletes.
	idempotencySweepBatch = 100
	// idempotencySweepOneIn: one new key in this many sweeps expired rows.
	idempotencySweepOneIn = 100
)

// idemRequest is what identifies a keyed request.
type idemRequest struct {
	credential, key string
	method, path    string
	hash            string
}

// claimOutcome is what claim decided for a keyed request.
type claimOutcome int

const (
	// claimAct: the request holds the key (the row is IN_PROGRESS under
	// its lock id) and runs.
	claimAct claimOutcome = iota
	// claimReplay: the key is DONE with the same request; answer its row.
	claimReplay
	// claimReused: the key was used for another request.
	claimReused
	// claimInUse: another request still holds the key.
	claimInUse
)

// idemStore reads and writes idempotency keys with the ent client of the
// request, outside the request's transaction: each write is its own short
// statement (on SQLite its own transaction, so it queues with the other
// writers of the process). Rows are scoped to the viewer's project by the
// ProjectMixin.
type idemStore struct {
	client  *ent.Client
	dialect string
}

func newIdemStore(ctx context.Context) idemStore {
	return idemStore{client: ent.FromContext(ctx), dialect: entdb.DialectFromContext(ctx)}
}

// write runs fn with a client whose writes commit at once.
func (s idemStore) write(ctx context.Context, fn func(*ent.Client) error) error {
	if s.dialect != dialect.SQLite {
		return fn(s.client)
	}
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx.Client()); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// clock is the time stored and compared: UTC, milliseconds (like every
// stored timestamp), so SQLite's text comparison orders it right.
func clock() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// claim decides what the request r does with its key: act (the returned
// row is IN_PROGRESS under the lock id it carries), replay the returned
// DONE row, or refuse. It waits up to idempotencyWait for another request
// that holds the key, and never beyond the request's deadline (less
// idempotencyAnswerMargin, to answer 409 rather than run out of time).
func (s idemStore) claim(ctx context.Context, r idemRequest) (claimOutcome, *ent.IdempotencyKey, error) {
	deadline := time.Now().Add(idempotencyWait)
	if d, ok := ctx.Deadline(); ok && d.Add(-idempotencyAnswerMargin).Before(deadline) {
		deadline = d.Add(-idempotencyAnswerMargin)
	}
	for {
		row, err := s.insert(ctx, r)
		if err == nil {
			return claimAct, row, nil
		}
		if !ent.IsConstraintError(err) {
			return 0, nil, fmt.Errorf("storing idempotency key: %w", err)
		}
		outcome, row, retry, err := s.await(ctx, r, deadline)
		if err != nil || !retry {
			return outcome, row, err
		}
		// The row went away (expired, or released after a failure): the
		// key is free again, unless the wait is over.
		if time.Now().After(deadline) {
			return claimInUse, nil, nil
		}
	}
}

// insert creates the IN_PROGRESS row; a unique-constraint error means the
// key exists.
func (s idemStore) insert(ctx context.Context, r idemRequest) (*ent.IdempotencyKey, error) {
	now := clock()
	var row *ent.IdempotencyKey
	err := s.write(ctx, func(c *ent.Client) error {
		var err error
		row, err = c.IdempotencyKey.Create().
			SetCredential(r.credential).SetKey(r.key).SetMethod(r.method).SetPath(r.path).
			SetRequestHash(r.hash).SetLockID(pulid.Hex(12)).SetLockedUntil(now.Add(idempotencyLease)).
			SetCreatedAt(now).SetExpiresAt(now.Add(idempotencyTTL)).
			Save(ctx)
		return err
	})
	if err == nil && rand.IntN(idempotencySweepOneIn) == 0 {
		s.sweep(ctx)
	}
	return row, err
}

// await reads the existing row of r's key until it decides: replay,
// reused, in use (after deadline), act (an expired lease taken over), or
// retry (the row is gone or expired: insert again).
func (s idemStore) await(ctx context.Context, r idemRequest, deadline time.Time) (claimOutcome, *ent.IdempotencyKey, bool, error) {
	for {
		row, err := s.client.IdempotencyKey.Query().
			Where(idempotencykey.Credential(r.credential), idempotencykey.Key(r.key)).Only(ctx)
		if ent.IsNotFound(err) {
			return 0, nil, true, nil
		}
		if err != nil {
			return 0, nil, false, fmt.Errorf("reading idempotency key: %w", err)
		}
		now := clock()
		switch {
		case !row.ExpiresAt.After(now):
			if err := s.deleteExpired(ctx, row); err != nil {
				return 0, nil, false, err
			}
			return 0, nil, true, nil
		case row.RequestHash != r.hash:
			return claimReused, row, false, nil
		case row.State == idempotencykey.StateDONE:
			return claimReplay, row, false, nil
		case !row.LockedUntil.After(now):
			taken, err := s.takeOver(ctx, row)
			if err != nil || taken != nil {
				return claimAct, taken, false, err
			}
			continue // another request took it first: read again
		case time.Now().After(deadline):
			return claimInUse, row, false, nil
		}
		select {
		case <-ctx.Done():
			return 0, nil, false, ctx.Err()
		case <-time.After(idempotencyPoll):
		}
	}
}

// takeOver locks an IN_PROGRESS row whose lease has lapsed for this
// request. Of several requests trying at once, the conditional update lets
// one win; the others get nil.
func (s idemStore) takeOver(ctx context.Context, row *ent.IdempotencyKey) (*ent.IdempotencyKey, error) {
	now, lock := clock(), pulid.Hex(12)
	var n int
	err := s.write(ctx, func(c *ent.Client) error {
		var err error
		n, err = c.IdempotencyKey.Update().
			Where(idempotencykey.ID(row.ID), idempotencykey.StateEQ(idempotencykey.StateIN_PROGRESS),
				idempotencykey.LockID(row.LockID), idempotencykey.LockedUntilLT(now)).
			SetLockID(lock).SetLockedUntil(now.Add(idempotencyLease)).
			Save(ctx)
		return err
	})
	if err != nil || n == 0 {
		return nil, wrapIdem("taking over idempotency key", err)
	}
	row.LockID, row.LockedUntil = lock, now.Add(idempotencyLease)
	return row, nil
}

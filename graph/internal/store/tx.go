package store

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
)

// InTx runs fn in one transaction of the ent client in ctx; fn's context
// carries the transaction's client, so every use case it calls joins it.
// Any error (or panic) rolls everything back. GraphQL mutations get the
// same through entgql.Transactioner; REST write handlers call InTx.
func InTx(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	txCtx, tx, err := ent.OpenTxFromContext(ctx)
	if err != nil {
		return fmt.Errorf("opening transaction: %w", err)
	}
	txCtx = withWebhookMemo(txCtx)
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(txCtx); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return fmt.Errorf("%w (rollback: %v)", err, rerr)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing transaction: %w", err)
	}
	return nil
}

// WithinTx runs fn in the transaction ctx already carries, or in a new one.
func WithinTx(ctx context.Context, fn func(ctx context.Context) error) error {
	if ent.TxFromContext(ctx) != nil {
		return fn(ctx)
	}
	return InTx(ctx, fn)
}

// WithinTxRetried is WithinTx for the paths that lock rows (redemptions,
// rollbacks): when it opens the transaction itself and PostgreSQL rolls it
// back for a deadlock or a serialization failure (IsTransient), fn runs
// again in a new transaction, up to MaxBatchAttempts times in all. A
// deadlock victim's transaction wrote nothing, so running it again gives
// the answer it would have given had it queued; with several server
// processes no lock order inside one process can rule deadlocks out.
// Inside a caller's transaction fn runs once: only the caller can run its
// transaction again. fn must have no effect outside the transaction; what
// it captures is overwritten by the next attempt.
func WithinTxRetried(ctx context.Context, fn func(ctx context.Context) error) error {
	if ent.TxFromContext(ctx) != nil {
		return fn(ctx)
	}
	for attempt := 1; ; attempt++ {
		err := InTx(ctx, fn)
		if err == nil || !IsTransient(err) || attempt == MaxBatchAttempts || ctx.Err() != nil {
			return err
		}
	}
}

// Client returns the ent client bound to ctx (a transaction's client inside
// a write). Its absence is a wiring bug, reported as an internal error.
func Client(ctx context.Context) (*ent.Client, error) {
	c := ent.FromContext(ctx)
	if c == nil {
		return nil, fmt.Errorf("graph: no ent client in context")
	}
	return c, nil
}

package webhook

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhookdelivery"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Pruning of the webhook outbox: a DELIVERED event, or a FAILED one, is
// deleted with its delivery attempts once it has been settled for longer
// than the retention (Settings.Retention, PROMO_WEBHOOK_RETENTION,
// default 30 days): counted from delivered_at for a delivered event, and
// from the failure (its last update) for a failed one, so a failed event
// can be redelivered by hand for the whole retention after it failed.
// PENDING events are never pruned. Every job worker prunes now and then
// (Settings.PruneEvery), in batches of pruneBatch events, each batch
// one transaction; on PostgreSQL the batch's rows are locked with SKIP
// LOCKED, so workers of several processes delete different rows without
// waiting for each other, and a redelivery racing the deletion either
// keeps its event (it made it PENDING first) or finds it gone (404).

// pruneBatch is how many events one pruning transaction deletes at most.
const pruneBatch = 500

// prunable are the events of state settled before cutoff. next_attempt_at
// is never later than the attempt that settled the event, so the range on
// it (index state, next_attempt_at) finds them without reading the rest.
func prunable(state webhookevent.State, cutoff time.Time) []predicate.WebhookEvent {
	settled := webhookevent.DeliveredAtLT(cutoff)
	if state == webhookevent.StateFAILED {
		settled = webhookevent.UpdatedAtLT(cutoff)
	}
	return []predicate.WebhookEvent{webhookevent.StateEQ(state), webhookevent.NextAttemptAtLT(cutoff), settled}
}

// PruneWebhookEvents deletes the delivered and failed events settled
// longer than the retention ago, with their delivery attempts, in batches
// until none is left; it reports how many events it deleted.
func (w *Deliverer) PruneWebhookEvents(ctx context.Context) (int, error) {
	w.Defaults()
	if w.Webhooks.Retention < 0 {
		return 0, nil // kept for ever
	}
	cutoff := time.Now().UTC().Add(-w.Webhooks.Retention)
	total := 0
	for _, state := range []webhookevent.State{webhookevent.StateDELIVERED, webhookevent.StateFAILED} {
		for ctx.Err() == nil {
			n, err := w.pruneBatch(ctx, state, cutoff)
			total += n
			if err != nil {
				return total, err
			}
			if n < pruneBatch {
				break
			}
		}
	}
	return total, ctx.Err()
}

// pruneBatch deletes up to pruneBatch events of state settled before
// cutoff, and their delivery attempts, in one transaction.
func (w *Deliverer) pruneBatch(ctx context.Context, state webhookevent.State, cutoff time.Time) (int, error) {
	var n int
	err := store.InTx(ent.NewContext(viewer.NewSystemContext(ctx), w.Client), func(ctx context.Context) error {
		c := ent.FromContext(ctx)
		q := c.WebhookEvent.Query().Where(prunable(state, cutoff)...).Limit(pruneBatch)
		if w.Dialect == dialect.Postgres {
			q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
		}
		ids, err := q.Unique(false).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := c.WebhookDelivery.Delete().Where(webhookdelivery.EventIDIn(ids...)).Exec(ctx); err != nil {
			return fmt.Errorf("deleting delivery attempts: %w", err)
		}
		// The condition again: on SQLite nothing was locked.
		n, err = c.WebhookEvent.Delete().Where(append(prunable(state, cutoff), webhookevent.IDIn(ids...))...).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("pruning webhook events: %w", err)
	}
	return n, nil
}

// RunPruning prunes the outbox every PruneEvery (with jitter, so the
// workers of many processes spread out) until ctx is cancelled.
func (w *Deliverer) RunPruning(ctx context.Context) {
	for {
		every := w.Webhooks.PruneEvery
		select {
		case <-ctx.Done():
			return
		case <-time.After(every/2 + rand.N(every/2+1)):
		}
		if n, err := w.PruneWebhookEvents(ctx); err != nil && ctx.Err() == nil {
			w.Logger.Error("pruning webhook events", "worker", w.ID, "error", err.Error())
		} else if n > 0 {
			w.Logger.Info("pruned webhook events", "worker", w.ID, "events", n)
		}
	}
}

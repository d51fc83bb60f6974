package graph

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhookevent"
)

// Webhook delivery: the job workers (jobs.go) also send the outbox's due
// events (webhook_outbox.go). Each Worker.Run starts one delivery loop
// beside its job loop, so a long job never holds deliveries up. A loop
// keeps up to Concurrency attempts in flight: it claims due events for its
// free slots with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL; on
// SQLite, which has one writer, a conditional update), POSTs each, records
// the attempt and settles the event: DELIVERED on a 2xx answer, else another attempt later
// (exponential back-off with jitter) until the retry window has passed,
// then FAILED. At least once: a worker that dies mid-delivery leaves the
// event to be claimed again when its lease ends; receivers deduplicate on
// the payload's id.

// SignatureHeader carries the hex HMAC-SHA256 of the raw body, keyed with
// the project's webhook_token (the real service's header name).
const SignatureHeader = "x-voucherify-signature"

// WebhookSettings tune webhook targets and delivery. The zero value is the
// default for self-hosting: private and loopback targets allowed, 5 s per
// attempt, back-off from 10 s doubling up to 1 h a step, retried for 24 h.
type WebhookSettings struct {
	// DenyPrivate refuses targets on loopback, private and other
	// non-public addresses (PROMO_WEBHOOK_ALLOW_PRIVATE=false).
	DenyPrivate bool
	// Timeout bounds one attempt, connection to last byte (default 5 s;
	// PROMO_WEBHOOK_TIMEOUT).
	Timeout time.Duration
	// RetryBase is the pause after the first failed attempt; each further
	// failure doubles it (default 10 s).
	RetryBase time.Duration
	// RetryMaxStep caps one pause (default 1 h).
	RetryMaxStep time.Duration
	// RetryWindow is how long an event is retried after it was written
	// (or redelivered by hand) before it is FAILED (default 24 h).
	RetryWindow time.Duration
	// Concurrency is how many events one loop sends at once (default 8).
	Concurrency int
}

func (s *WebhookSettings) defaults() {
	if s.Timeout <= 0 {
		s.Timeout = 5 * time.Second
	}
	if s.RetryBase <= 0 {
		s.RetryBase = 10 * time.Second
	}
	if s.RetryMaxStep <= 0 {
		s.RetryMaxStep = time.Hour
	}
	if s.RetryWindow <= 0 {
		s.RetryWindow = 24 * time.Hour
	}
	if s.Concurrency <= 0 {
		s.Concurrency = 8
	}
}

// backoff is the pause after the n-th failed attempt (n ≥ 1): RetryBase ·
// 2^(n-1), capped at RetryMaxStep, then a random part of up to half taken
// off ("equal jitter"), so failures of many events spread out.
func (s WebhookSettings) backoff(n int) time.Duration {
	d := s.RetryBase
	for i := 1; i < n && d < s.RetryMaxStep; i++ {
		d *= 2
	}
	d = min(d, s.RetryMaxStep)
	half := d / 2
	return d - half + rand.N(half+1)
}

// lease is how long a claim lasts: one attempt and the bookkeeping around it.
func (s WebhookSettings) lease() time.Duration { return 2*s.Timeout + 10*time.Second }

// runDeliveries delivers webhook events until ctx is cancelled. Up to
// Concurrency attempts run at once; a slot freed by a finished attempt is
// refilled at the next look, so a slow receiver holds only its own slots
// and never the loop.
func (w *Worker) runDeliveries(ctx context.Context) {
	slots := make(chan struct{}, w.Webhooks.Concurrency)
	var running sync.WaitGroup
	defer running.Wait()
	for {
		if free := cap(slots) - len(slots); free > 0 {
			evs, err := w.claimWebhookEvents(ctx, free)
			if err != nil && ctx.Err() == nil {
				w.Logger.Error("webhook delivery", "worker", w.ID, "error", err.Error())
			}
			for _, ev := range evs {
				slots <- struct{}{}
				running.Add(1)
				go func() {
					defer func() { <-slots; running.Done() }()
					if err := w.deliverWebhookEvent(ctx, ev); err != nil && ctx.Err() == nil {
						w.Logger.Error("webhook delivery", "worker", w.ID, "event", ev.ID, "error", err.Error())
					}
				}()
			}
			if len(evs) == free {
				continue // there may be more due
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(w.Poll):
		}
	}
}

// DeliverWebhooks claims the due webhook events (up to Concurrency), sends
// them in parallel and records the outcomes. It reports how many it sent.
// (Run does the same continuously; this is for one-off runs and tests.)
func (w *Worker) DeliverWebhooks(ctx context.Context) (int, error) {
	w.defaults()
	evs, err := w.claimWebhookEvents(ctx, w.Webhooks.Concurrency)
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	var wg sync.WaitGroup
	errs := make([]error, len(evs))
	for i, ev := range evs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.deliverWebhookEvent(ctx, ev)
		}()
	}
	wg.Wait()
	return len(evs), errors.Join(errs...)
}

// dueEvents are the PENDING events whose time has come, not leased by a
// live worker, and the oldest pending one of their (webhook, object) pair:
// a newer event of an object waits until the older one is delivered or
// FAILED, so a receiver gets one object's events in order.
func dueEvents(now time.Time) []predicate.WebhookEvent {
	oldestOfObject := predicate.WebhookEvent(func(s *sql.Selector) {
		older := sql.Table(webhookevent.Table).As("older")
		s.Where(sql.NotExists(sql.Select(older.C(webhookevent.FieldID)).From(older).Where(sql.And(
			sql.ColumnsEQ(older.C(webhookevent.FieldWebhookID), s.C(webhookevent.FieldWebhookID)),
			sql.ColumnsEQ(older.C(webhookevent.FieldObjectID), s.C(webhookevent.FieldObjectID)),
			sql.EQ(older.C(webhookevent.FieldState), webhookevent.StatePENDING),
			sql.ColumnsLT(older.C(webhookevent.FieldID), s.C(webhookevent.FieldID)),
		))))
	})
	return []predicate.WebhookEvent{
		webhookevent.StateEQ(webhookevent.StatePENDING),
		webhookevent.NextAttemptAtLTE(now),
		webhookevent.Or(webhookevent.LeaseUntilIsNil(), webhookevent.LeaseUntilLT(now)),
		oldestOfObject,
	}
}

// claimWebhookEvents leases due events to this worker. On PostgreSQL the
// candidates are locked with SKIP LOCKED, so concurrent workers take
// different events without waiting for each other; everywhere the lease
// is set by an update that only succeeds on a row still unleased, so one
// event is never sent by two workers at once.
func (w *Worker) claimWebhookEvents(ctx context.Context, limit int) ([]*ent.WebhookEvent, error) {
	sys := viewer.NewSystemContext(ctx)
	now := time.Now().UTC()
	until := now.Add(w.Webhooks.lease())
	claim := func(ctx context.Context, c *ent.Client) ([]string, error) {
		q := c.WebhookEvent.Query().Where(dueEvents(now)...).
			Order(ent.Asc(webhookevent.FieldNextAttemptAt), ent.Asc(webhookevent.FieldID)).Limit(limit)
		if w.Dialect == dialect.Postgres {
			q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
		}
		ids, err := q.Unique(false).IDs(ctx)
		if err != nil {
			return nil, fmt.Errorf("claiming webhook events: %w", err)
		}
		var claimed []string
		for _, id := range ids {
			n, err := c.WebhookEvent.Update().Where(webhookevent.ID(id), webhookevent.StateEQ(webhookevent.StatePENDING),
				webhookevent.Or(webhookevent.LeaseUntilIsNil(), webhookevent.LeaseUntilLT(now))).
				SetClaimedBy(w.ID).SetLeaseUntil(until).Save(ctx)
			if err != nil {
				return nil, fmt.Errorf("claiming webhook event: %w", err)
			}
			if n == 1 {
				claimed = append(claimed, id)
			}
		}
		return claimed, nil
	}
	var ids []string
	var err error
	if w.Dialect == dialect.Postgres {
		err = InTx(ent.NewContext(sys, w.Client), func(ctx context.Context) error {
			ids, err = claim(ctx, ent.FromContext(ctx))
			return err
		})
	} else {
		// SQLite: a read first (no writer turn when nothing is due), then
		// one conditional update per candidate.
		ids, err = claim(sys, w.Client)
	}
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return w.Client.WebhookEvent.Query().Where(webhookevent.IDIn(ids...), webhookevent.ClaimedBy(w.ID)).
		Order(ent.Asc(webhookevent.FieldID)).All(sys)
}

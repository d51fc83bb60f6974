package webhook

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
// events (outbox.go). Each Worker.Run starts one delivery loop
// beside its job loop (and a pruning loop, prune.go), so a long
// job never holds deliveries up. A loop keeps up to Concurrency attempts
// in flight: it claims due events with a lease (claim.go: one
// statement with FOR UPDATE SKIP LOCKED on PostgreSQL; on SQLite, which
// has one writer, a conditional update), POSTs each (send.go),
// and records the attempts and settles the events in batches
// (settle.go): DELIVERED on a 2xx answer, else another attempt
// later (exponential back-off with jitter) until the retry window has
// passed, then FAILED. At least once: a worker that dies mid-delivery leaves the
// event to be claimed again when its lease ends; receivers deduplicate on
// the payload's id.

// SignatureHeader carries the hex HMAC-SHA256 of the raw body, keyed with
// the project's webhook_token (the real service's header name).
const SignatureHeader = "x-voucherify-signature"

// Settings tune webhook targets and delivery. The zero value is the
// default for self-hosting: private and loopback targets allowed, 5 s per
// attempt, back-off from 10 s doubling up to 1 h a step, retried for 24 h.
type Settings struct {
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
	// Retention is how long DELIVERED and FAILED events and their delivery
	// attempts are kept after they were delivered or failed (default 30
	// days; PROMO_WEBHOOK_RETENTION); negative keeps them for ever
	// (prune.go).
	Retention time.Duration
	// PruneEvery is the pause between two prunings by one worker (default
	// 1 min, with jitter).
	PruneEvery time.Duration
}

// DefaultWebhookRetention is how long settled webhook events are kept.
const DefaultWebhookRetention = 30 * 24 * time.Hour

func (s *Settings) defaults() {
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
	if s.Retention == 0 {
		s.Retention = DefaultWebhookRetention
	}
	if s.PruneEvery <= 0 {
		s.PruneEvery = time.Minute
	}
}

// backoff is the pause after the n-th failed attempt (n ≥ 1): RetryBase ·
// 2^(n-1), capped at RetryMaxStep, then a random part of up to half taken
// off ("equal jitter"), so failures of many events spread out.
func (s Settings) backoff(n int) time.Duration {
	d := s.RetryBase
	for i := 1; i < n && d < s.RetryMaxStep; i++ {
		d *= 2
	}
	d = min(d, s.RetryMaxStep)
	half := d / 2
	return d - half + rand.N(half+1)
}

// lease is how long a claim lasts: one attempt and the bookkeeping around it.
func (s Settings) lease() time.Duration { return 2*s.Timeout + 10*time.Second }

// RunDeliveries delivers webhook events until ctx is cancelled. Up to
// Concurrency attempts run at once, each in its own goroutine, so a slow
// receiver holds only its own slots and never the loop. The loop holds up
// to twice as many claimed events: the next ones wait for a free attempt,
// so one claim serves several attempts and the queue never runs dry
// between claims (the lease, 2 × timeout + 10 s, covers an attempt ahead
// and its own). While events keep coming the loop claims again as soon as
// half its places are free; when none is due it looks every Poll.
// Outcomes are recorded by a settler (settle.go), several in one
// transaction.
func (w *Deliverer) RunDeliveries(ctx context.Context) {
	held := make(chan struct{}, 2*w.Webhooks.Concurrency)
	sending := make(chan struct{}, w.Webhooks.Concurrency)
	freed := make(chan struct{}, 1)
	settler := w.startSettler()
	var running sync.WaitGroup
	defer func() { running.Wait(); settler.stop() }()
	more := false // the last claim filled every free place: more may be due
	for {
		free := cap(held) - len(held)
		if free > 0 && (!more || free >= cap(held)/2) {
			evs, err := w.claimWebhookEvents(ctx, free)
			if err != nil && ctx.Err() == nil {
				w.Logger.Error("webhook delivery", "worker", w.ID, "error", err.Error())
			}
			for _, ev := range evs {
				held <- struct{}{}
				running.Add(1)
				go func() {
					defer func() {
						<-held
						running.Done()
						select {
						case freed <- struct{}{}:
						default:
						}
					}()
					select {
					case sending <- struct{}{}:
						defer func() { <-sending }()
					case <-ctx.Done(): // handed back below, uncounted
					}
					if err := w.deliverWebhookEvent(ctx, ev, settler.record); err != nil && ctx.Err() == nil {
						w.Logger.Error("webhook delivery", "worker", w.ID, "event", ev.ID, "error", err.Error())
					}
				}()
			}
			more = err == nil && len(evs) == free
		}
		wait := time.After(w.Poll)
		if more {
			wait = nil // wake when places free up
		}
		select {
		case <-ctx.Done():
			return
		case <-freed:
		case <-wait:
		}
	}
}

// DeliverWebhooks claims the due webhook events (up to Concurrency), sends
// them in parallel and records the outcomes. It reports how many it sent.
// (Run does the same continuously; this is for one-off runs and tests.)
func (w *Deliverer) DeliverWebhooks(ctx context.Context) (int, error) {
	w.Defaults()
	evs, err := w.claimWebhookEvents(ctx, w.Webhooks.Concurrency)
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	var mu sync.Mutex
	var outcomes []settlement
	record := func(s settlement) {
		mu.Lock()
		outcomes = append(outcomes, s)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	errs := make([]error, len(evs)+1)
	for i, ev := range evs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.deliverWebhookEvent(ctx, ev, record)
		}()
	}
	wg.Wait()
	errs[len(evs)] = w.settle(context.WithoutCancel(ctx), outcomes)
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

// claimWebhookEvents leases due events to this worker, with the webhook
// and signing secret each is sent with. On PostgreSQL one statement picks
// the candidates with SKIP LOCKED, so concurrent workers take different
// events without waiting for each other, and leases them
// (claim.go). On SQLite, which has one writer, a read finds the
// candidates and an update per candidate leases it only if it is still
// unleased. Either way one event is never sent by two workers at once.
func (w *Deliverer) claimWebhookEvents(ctx context.Context, limit int) ([]claimedEvent, error) {
	sys := viewer.NewSystemContext(ctx)
	now := time.Now().UTC()
	until := now.Add(w.Webhooks.lease())
	var evs []*ent.WebhookEvent
	var err error
	if w.Dialect == dialect.Postgres {
		evs, err = w.claimInOneStatement(sys, now, until, limit)
	} else {
		evs, err = w.claimOneByOne(sys, now, until, limit)
	}
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	return w.withTargets(sys, evs)
}

// claimOneByOne is the claim on SQLite: a read first (no writer turn when
// nothing is due), then one conditional update per candidate.
func (w *Deliverer) claimOneByOne(sys context.Context, now, until time.Time, limit int) ([]*ent.WebhookEvent, error) {
	ids, err := w.Client.WebhookEvent.Query().Where(dueEvents(now)...).
		Order(ent.Asc(webhookevent.FieldNextAttemptAt), ent.Asc(webhookevent.FieldID)).Limit(limit).IDs(sys)
	if err != nil {
		return nil, fmt.Errorf("claiming webhook events: %w", err)
	}
	var claimed []string
	for _, id := range ids {
		n, err := w.Client.WebhookEvent.Update().Where(webhookevent.ID(id), webhookevent.StateEQ(webhookevent.StatePENDING),
			webhookevent.Or(webhookevent.LeaseUntilIsNil(), webhookevent.LeaseUntilLT(now))).
			SetClaimedBy(w.ID).SetLeaseUntil(until).Save(sys)
		if err != nil {
			return nil, fmt.Errorf("claiming webhook event: %w", err)
		}
		if n == 1 {
			claimed = append(claimed, id)
		}
	}
	if len(claimed) == 0 {
		return nil, nil
	}
	return w.Client.WebhookEvent.Query().Where(webhookevent.IDIn(claimed...), webhookevent.ClaimedBy(w.ID)).
		Order(ent.Asc(webhookevent.FieldID)).All(sys)
}

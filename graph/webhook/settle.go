package webhook

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Recording delivery attempts. Each attempt's outcome goes to the
// delivery loop's settler, which records the outcomes waiting at that
// moment in one transaction: the events move on (DELIVERED, another
// attempt later, or FAILED) and each attempt becomes a webhook_deliveries
// row. Outcomes are recorded only for events still leased to this worker.

// settlement is one attempt's outcome, to be recorded.
type settlement struct {
	ev  *ent.WebhookEvent
	out attemptOutcome
}

// maxSettleBatch bounds the outcomes recorded in one transaction.
const maxSettleBatch = 128

// settler records outcomes in batches, in a goroutine of its own.
type settler struct {
	in   chan settlement
	done chan struct{}
}

// startSettler starts the settler of a delivery loop; stop flushes it.
func (w *Deliverer) startSettler() *settler {
	s := &settler{in: make(chan settlement, 2*maxSettleBatch), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for first := range s.in {
			batch := []settlement{first}
		gather:
			for len(batch) < maxSettleBatch {
				select {
				case next, ok := <-s.in:
					if !ok {
						break gather
					}
					batch = append(batch, next)
				default:
					break gather
				}
			}
			if err := w.settle(context.Background(), batch); err != nil {
				// The events stay leased; once the lease ends they are sent again.
				w.Logger.Error("recording webhook deliveries", "worker", w.ID, "events", len(batch), "error", err.Error())
			}
		}
	}()
	return s
}

func (s *settler) record(x settlement) { s.in <- x }

func (s *settler) stop() {
	close(s.in)
	<-s.done
}

// settle records a batch of outcomes in one transaction, retrying a
// transaction that lost a deadlock or serialization conflict.
func (w *Deliverer) settle(ctx context.Context, batch []settlement) error {
	if len(batch) == 0 {
		return nil
	}
	var err error
	for attempt := 1; attempt <= store.MaxBatchAttempts; attempt++ {
		if err = w.trySettle(ctx, batch); err == nil || !store.IsTransient(err) {
			break
		}
	}
	return err
}

// verdict is what a recorded outcome does to its event: its state, and
// for a PENDING one when the next attempt is due.
type verdict struct {
	state webhookevent.State
	next  time.Time
}

// judge decides an outcome: DELIVERED on a 2xx answer; else another
// attempt after the back-off, or FAILED once the retry window has passed
// or there is no point in trying again.
func (w *Deliverer) judge(ev *ent.WebhookEvent, out attemptOutcome, now time.Time) verdict {
	if out.ok() {
		return verdict{state: webhookevent.StateDELIVERED}
	}
	deadline := ev.RetrySince.Add(w.Webhooks.RetryWindow)
	switch next := now.Add(w.Webhooks.backoff(ev.Attempts + 1)); {
	case out.final || !now.Before(deadline):
		return verdict{state: webhookevent.StateFAILED}
	case next.After(deadline):
		return verdict{state: webhookevent.StatePENDING, next: deadline} // one last attempt at the end of the window
	default:
		return verdict{state: webhookevent.StatePENDING, next: next}
	}
}

func (w *Deliverer) trySettle(ctx context.Context, batch []settlement) error {
	return store.InTx(ent.NewContext(viewer.NewSystemContext(ctx), w.Client), func(ctx context.Context) error {
		c := ent.FromContext(ctx)
		now := time.Now().UTC().Truncate(time.Millisecond)
		verdicts := make([]verdict, len(batch))
		for i, s := range batch {
			verdicts[i] = w.judge(s.ev, s.out, now)
		}
		settle := w.settleRows
		if w.Dialect == dialect.Postgres {
			settle = w.settleInOneStatement
		}
		ours, err := settle(ctx, c, batch, verdicts, now)
		if err != nil {
			return fmt.Errorf("settling webhook events: %w", err)
		}
		var attempts []*ent.WebhookDeliveryCreate
		for _, s := range batch {
			ev, out := s.ev, s.out
			if !ours[ev.ID] {
				continue // the lease ran out and another worker has the event
			}
			create := c.WebhookDelivery.Create().SetProjectID(ev.ProjectID).SetEventID(ev.ID).SetWebhookID(ev.WebhookID).
				SetAttempt(ev.Attempts + 1).SetNillableStatusCode(out.status).SetSuccess(out.ok()).
				SetDurationMs(out.duration.Milliseconds()).SetTargetURL(Truncate(out.target, 2048))
			if out.err != "" {
				create.SetError(Truncate(out.err, 1000))
			}
			attempts = append(attempts, create)
		}
		if len(attempts) > 0 {
			if err := c.WebhookDelivery.CreateBulk(attempts...).Exec(ctx); err != nil {
				return fmt.Errorf("recording webhook deliveries: %w", err)
			}
		}
		return nil
	})
}

// settleInOneStatement moves the events still leased to this worker on,
// in one UPDATE on PostgreSQL that reports which they were. Like the
// claim, it is written with its values, so it is planned for the table as
// it is (a plan cached while the outbox was small would scan it whole).
func (w *Deliverer) settleInOneStatement(ctx context.Context, c *ent.Client, batch []settlement, verdicts []verdict, now time.Time) (map[string]bool, error) {
	values := make([]string, len(batch))
	for i, s := range batch {
		next := "NULL::timestamptz"
		if verdicts[i].state == webhookevent.StatePENDING {
			next = sqlTime(verdicts[i].next)
		}
		values[i] = "(" + pq.QuoteLiteral(s.ev.ID) + ", " + pq.QuoteLiteral(verdicts[i].state.String()) + ", " + next + ")"
	}
	rows, err := c.QueryContext(ctx, `UPDATE webhook_events e SET state = v.state, attempts = e.attempts + 1,
	next_attempt_at = coalesce(v.next, e.next_attempt_at),
	delivered_at = CASE WHEN v.state = 'DELIVERED' THEN `+sqlTime(now)+` ELSE e.delivered_at END,
	claimed_by = NULL, lease_until = NULL, updated_at = `+sqlTime(now)+`
FROM (VALUES `+strings.Join(values, ", ")+`) v(id, state, next)
WHERE e.id = v.id AND e.claimed_by = `+pq.QuoteLiteral(w.ID)+`
RETURNING e.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ours := make(map[string]bool, len(batch))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ours[id] = true
	}
	return ours, rows.Err()
}

// settleRows moves the events still leased to this worker on, through
// ent (SQLite, whose one writer needs no row locks).
func (w *Deliverer) settleRows(ctx context.Context, c *ent.Client, batch []settlement, verdicts []verdict, now time.Time) (map[string]bool, error) {
	ids := make([]string, len(batch))
	for i, s := range batch {
		ids[i] = s.ev.ID
	}
	owned, err := c.WebhookEvent.Query().Where(webhookevent.IDIn(ids...), webhookevent.ClaimedBy(w.ID)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	ours := make(map[string]bool, len(owned))
	for _, id := range owned {
		ours[id] = true
	}
	var delivered []string
	for i, s := range batch {
		switch v := verdicts[i]; {
		case !ours[s.ev.ID]:
		case v.state == webhookevent.StateDELIVERED:
			delivered = append(delivered, s.ev.ID)
		default:
			upd := c.WebhookEvent.UpdateOneID(s.ev.ID).AddAttempts(1).ClearClaimedBy().ClearLeaseUntil().SetState(v.state)
			if v.state == webhookevent.StatePENDING {
				upd.SetNextAttemptAt(v.next)
			}
			if err := upd.Exec(ctx); err != nil {
				return nil, err
			}
		}
	}
	if len(delivered) > 0 {
		err := c.WebhookEvent.Update().Where(webhookevent.IDIn(delivered...)).
			SetState(webhookevent.StateDELIVERED).SetDeliveredAt(now).AddAttempts(1).ClearClaimedBy().ClearLeaseUntil().Exec(ctx)
		if err != nil {
			return nil, err
		}
	}
	return ours, nil
}

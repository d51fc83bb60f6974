package webhook

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/ent/webhook"
	"github.com/promoengine/promoengine/ent/webhookevent"
)

// claimedEvent is an event leased to this worker with what sending it
// needs: its webhook as it is now (nil once deleted) and the project's
// signing secret. Both are read once per claim, not once per event.
type claimedEvent struct {
	*ent.WebhookEvent
	hook  *ent.Webhook
	token string
}

// claimStatement leases up to limit due events to worker until a time, in
// one statement on PostgreSQL: the candidates are the due events of
// dueEvents (oldest pending of their webhook and object), locked with SKIP
// LOCKED; the lease is written and the rows returned at once. The values
// are written into the text, so the statement runs unprepared (entdb
// prepares only statements with parameters) and is planned for the
// table as it is each time: a plan cached while the outbox was empty
// would check the order of every candidate against every pending event.
// For the same reason the order check is a scalar subquery (LIMIT 1),
// which PostgreSQL runs per candidate through the (webhook_id, object_id,
// state) index, not an anti-join whose shape would follow statistics that
// may say "no pending events" while thousands wait. Candidates are taken
// in the order of the (state, next_attempt_at) index, so the scan stops at
// the limit (ties between objects need no order: one object's events are
// ordered by the subquery).
func claimStatement(worker string, now, until time.Time, limit int) string {
	cols := make([]string, len(webhookevent.Columns))
	for i, c := range webhookevent.Columns {
		cols[i] = "e." + c
	}
	at := sqlTime
	return `UPDATE webhook_events e SET claimed_by = ` + pq.QuoteLiteral(worker) + `, lease_until = ` + at(until) +
		`, updated_at = ` + at(now) + `
FROM (
	SELECT c.id FROM webhook_events c
	WHERE c.state = 'PENDING' AND c.next_attempt_at <= ` + at(now) + ` AND (c.lease_until IS NULL OR c.lease_until < ` + at(now) + `)
		AND (SELECT o.id FROM webhook_events o WHERE o.webhook_id = c.webhook_id
			AND o.object_id = c.object_id AND o.state = 'PENDING' AND o.id < c.id LIMIT 1) IS NULL
	ORDER BY c.next_attempt_at LIMIT ` + strconv.Itoa(limit) + `
	FOR UPDATE SKIP LOCKED
) picked
WHERE e.id = picked.id
RETURNING ` + strings.Join(cols, ", ")
}

// claimInOneStatement runs claimStatement.
func (w *Deliverer) claimInOneStatement(sys context.Context, now, until time.Time, limit int) ([]*ent.WebhookEvent, error) {
	start := time.Now()
	defer func() { w.refreshOutboxStatistics(sys, time.Since(start)) }()
	rows, err := w.Client.QueryContext(sys, claimStatement(w.ID, now, until, limit))
	if err != nil {
		return nil, fmt.Errorf("claiming webhook events: %w", err)
	}
	defer rows.Close()
	var evs []*ent.WebhookEvent
	for rows.Next() {
		ev, values, err := w.Client.WebhookEvent.ScanTargets(webhookevent.Columns)
		if err != nil {
			return nil, err
		}
		if err := rows.Scan(values...); err != nil {
			return nil, fmt.Errorf("claiming webhook events: %w", err)
		}
		if err := ev.AssignScanned(webhookevent.Columns, values); err != nil {
			return nil, fmt.Errorf("claiming webhook events: %w", err)
		}
		evs = append(evs, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claiming webhook events: %w", err)
	}
	return evs, nil
}

// slowClaim is how long a claim may take before the outbox's statistics
// are refreshed; lastOutboxAnalyze is when this process last did it.
const slowClaim = 50 * time.Millisecond

var lastOutboxAnalyze atomic.Int64

// refreshOutboxStatistics analyzes the outbox after a slow claim, at most
// every 30 s per process. A burst of events can leave PostgreSQL's
// statistics saying "no pending events" (autovacuum analyzes about a
// minute later); the claim is then planned as a scan of every pending
// event instead of an ordered walk of the index that stops at its limit,
// and each claim costs more as the queue grows. ANALYZE samples the table
// in milliseconds and the next claim is planned right.
func (w *Deliverer) refreshOutboxStatistics(sys context.Context, took time.Duration) {
	last := lastOutboxAnalyze.Load()
	if took < slowClaim || time.Since(time.Unix(0, last)) < 30*time.Second ||
		!lastOutboxAnalyze.CompareAndSwap(last, time.Now().UnixNano()) {
		return
	}
	if _, err := w.Client.ExecContext(sys, "ANALYZE webhook_events"); err != nil {
		w.Logger.Warn("analyzing webhook_events after a slow claim", "took", took.String(), "error", err.Error())
		return
	}
	w.Logger.Info("analyzed webhook_events after a slow claim", "took", took.String())
}

// withTargets reads the webhooks and signing secrets of the claimed events.
func (w *Deliverer) withTargets(sys context.Context, evs []*ent.WebhookEvent) ([]claimedEvent, error) {
	var hookIDs, projectIDs []string
	for _, ev := range evs {
		hookIDs = append(hookIDs, ev.WebhookID)
		projectIDs = append(projectIDs, ev.ProjectID)
	}
	hooks, err := w.Client.Webhook.Query().Where(webhook.IDIn(hookIDs...)).All(sys)
	if err != nil {
		return nil, fmt.Errorf("reading webhooks: %w", err)
	}
	projects, err := w.Client.Project.Query().Where(project.IDIn(projectIDs...)).
		Select(project.FieldID, project.FieldWebhookToken).All(sys)
	if err != nil {
		return nil, fmt.Errorf("reading projects: %w", err)
	}
	byID := make(map[string]*ent.Webhook, len(hooks))
	for _, h := range hooks {
		byID[h.ID] = h
	}
	tokens := make(map[string]string, len(projects))
	for _, p := range projects {
		if tokens[p.ID], err = EnsureWebhookToken(sys, w.Client, p); err != nil {
			return nil, err
		}
	}
	out := make([]claimedEvent, len(evs))
	for i, ev := range evs {
		out[i] = claimedEvent{WebhookEvent: ev, hook: byID[ev.WebhookID], token: tokens[ev.ProjectID]}
	}
	return out, nil
}

// sqlTime is t as a PostgreSQL timestamptz literal.
func sqlTime(t time.Time) string {
	return pq.QuoteLiteral(t.UTC().Format(time.RFC3339Nano)) + "::timestamptz"
}

package graph

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"syscall"
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

// webhookBody is the JSON POSTed to a webhook's target.
type webhookBody struct {
	ID        string          `json:"id"`
	Object    string          `json:"object"`
	ProjectID string          `json:"project_id"`
	WebhookID string          `json:"webhook_id"`
	CreatedAt string          `json:"created_at"`
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
}

// WebhookPayload is the body sent for ev (the same bytes on every attempt).
func WebhookPayload(ev *ent.WebhookEvent) ([]byte, error) {
	return json.Marshal(webhookBody{ID: ev.ID, Object: "event", ProjectID: ev.ProjectID, WebhookID: ev.WebhookID,
		CreatedAt: formatTime(ev.CreatedAt), Type: ev.Type, Data: json.RawMessage(ev.Data)})
}

// SignWebhook is the x-voucherify-signature of body under token.
func SignWebhook(token string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(token))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// attemptOutcome is what one POST came to.
type attemptOutcome struct {
	status   *int
	err      string
	duration time.Duration
	target   string
	// final: no point in trying again (the webhook was deleted or
	// deactivated); the event is FAILED at once.
	final bool
}

func (o attemptOutcome) ok() bool { return o.status != nil && *o.status >= 200 && *o.status < 300 }

// deliverWebhookEvent sends one claimed event and settles it.
func (w *Worker) deliverWebhookEvent(ctx context.Context, ev *ent.WebhookEvent) error {
	sys := viewer.NewSystemContext(ctx)
	out, err := w.attempt(ctx, sys, ev)
	if err != nil {
		return err
	}
	if ctx.Err() != nil && !out.ok() {
		// Shutting down: the attempt was cut short, not answered. Hand the
		// event back at once for another worker, without counting it.
		err := w.Client.WebhookEvent.Update().Where(webhookevent.ID(ev.ID), webhookevent.ClaimedBy(w.ID)).
			ClearClaimedBy().ClearLeaseUntil().Exec(context.WithoutCancel(sys))
		return wrapErr("releasing webhook event", err)
	}
	return w.settle(context.WithoutCancel(sys), ev, out)
}

// attempt POSTs ev to its webhook's current target. An inactive or deleted
// webhook is an outcome without a request.
func (w *Worker) attempt(ctx, sys context.Context, ev *ent.WebhookEvent) (attemptOutcome, error) {
	h, err := w.Client.Webhook.Get(sys, ev.WebhookID)
	if ent.IsNotFound(err) {
		return attemptOutcome{err: "the webhook was deleted", final: true}, nil
	}
	if err != nil {
		return attemptOutcome{}, fmt.Errorf("reading webhook: %w", err)
	}
	out := attemptOutcome{target: h.TargetURL}
	if !h.Active {
		out.err, out.final = "the webhook is not active", true
		return out, nil
	}
	p, err := w.Client.Project.Get(sys, ev.ProjectID)
	if err != nil {
		return out, fmt.Errorf("reading project: %w", err)
	}
	token, err := EnsureWebhookToken(sys, w.Client, p)
	if err != nil {
		return out, err
	}
	body, err := WebhookPayload(ev)
	if err != nil {
		return out, err
	}
	actx, cancel := context.WithTimeout(ctx, w.Webhooks.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, h.TargetURL, bytes.NewReader(body))
	if err != nil {
		out.err = "invalid target URL: " + err.Error()
		return out, nil
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "promoengine-webhooks/1")
	req.Header.Set(SignatureHeader, SignWebhook(token, body))
	start := time.Now()
	resp, err := w.httpClient.Do(req)
	if err == nil {
		// The answer counts once its body has arrived (or the time is up).
		excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		code := resp.StatusCode
		out.status = &code
		if !out.ok() {
			out.err = strings.TrimSpace(fmt.Sprintf("HTTP %d: %s", code, excerpt))
		}
	} else {
		out.err = err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			out.err = fmt.Sprintf("no answer within %s", w.Webhooks.Timeout)
		}
	}
	out.duration = time.Since(start)
	return out, nil
}

// settle records an attempt and moves the event on, in one transaction;
// nothing is written when this worker's lease has been lost meanwhile.
func (w *Worker) settle(sys context.Context, ev *ent.WebhookEvent, out attemptOutcome) error {
	return InTx(ent.NewContext(sys, w.Client), func(ctx context.Context) error {
		c := ent.FromContext(ctx)
		now := time.Now().UTC()
		upd := c.WebhookEvent.Update().Where(webhookevent.ID(ev.ID), webhookevent.ClaimedBy(w.ID)).
			AddAttempts(1).ClearClaimedBy().ClearLeaseUntil()
		deadline := ev.RetrySince.Add(w.Webhooks.RetryWindow)
		switch next := now.Add(w.Webhooks.backoff(ev.Attempts + 1)); {
		case out.ok():
			upd.SetState(webhookevent.StateDELIVERED).SetDeliveredAt(now)
		case out.final || !now.Before(deadline):
			upd.SetState(webhookevent.StateFAILED)
		case next.After(deadline):
			upd.SetNextAttemptAt(deadline) // one last attempt at the end of the window
		default:
			upd.SetNextAttemptAt(next)
		}
		n, err := upd.Save(ctx)
		if err != nil {
			return fmt.Errorf("settling webhook event: %w", err)
		}
		if n == 0 {
			return nil // the lease ran out and another worker has the event
		}
		create := c.WebhookDelivery.Create().SetProjectID(ev.ProjectID).SetEventID(ev.ID).SetWebhookID(ev.WebhookID).
			SetAttempt(ev.Attempts + 1).SetNillableStatusCode(out.status).SetSuccess(out.ok()).
			SetDurationMs(out.duration.Milliseconds()).SetTargetURL(truncate(out.target, 2048))
		if out.err != "" {
			create.SetError(truncate(out.err, 1000))
		}
		if err := create.Exec(ctx); err != nil {
			return fmt.Errorf("recording webhook delivery: %w", err)
		}
		return nil
	})
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// newWebhookClient is the HTTP client of deliveries: no redirects followed
// (a 3xx is a failed attempt), the attempt's timeout, and with DenyPrivate
// a dialer that refuses non-public addresses and no proxy.
func newWebhookClient(s WebhookSettings) *http.Client {
	dialer := &net.Dialer{Timeout: s.Timeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   s.Timeout,
		ResponseHeaderTimeout: s.Timeout,
	}
	if s.DenyPrivate {
		tr.Proxy = nil
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !PublicAddr(ap.Addr()) {
				return fmt.Errorf("refusing to connect to non-public address %s", address)
			}
			return nil
		}
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       s.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

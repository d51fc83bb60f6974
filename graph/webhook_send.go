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
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhookevent"
)

// One delivery attempt: the signed body, the HTTP request and its outcome.

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

package webhook

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
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// One delivery attempt: the signed body, the HTTP request and its outcome.

// webhookEnvelope is the JSON POSTed to a webhook's target, but its data,
// which comes last.
type webhookEnvelope struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	ProjectID string `json:"project_id"`
	WebhookID string `json:"webhook_id"`
	CreatedAt string `json:"created_at"`
	Type      string `json:"type"`
}

// Payload is the body sent for ev (the same on every attempt). The
// data, valid JSON written by promoengine, is appended as it is rather than
// compacted once more by json.Marshal.
func Payload(ctx context.Context, ev *ent.WebhookEvent) ([]byte, error) {
	data, err := EventData(ctx, ev)
	if err != nil {
		return nil, err
	}
	if data == "" {
		data = "null"
	}
	head, err := json.Marshal(webhookEnvelope{ID: ev.ID, Object: "event", ProjectID: ev.ProjectID, WebhookID: ev.WebhookID,
		CreatedAt: clock.Format(ev.CreatedAt), Type: ev.Type})
	if err != nil {
		return nil, fmt.Errorf("encoding webhook payload: %w", err)
	}
	body := make([]byte, 0, len(head)+len(data)+9)
	body = append(body, head[:len(head)-1]...)
	body = append(body, `,"data":`...)
	body = append(body, data...)
	return append(body, '}'), nil
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

// deliverWebhookEvent sends one claimed event and hands the outcome to
// record (the settler), or, when shutdown cut the attempt short, hands the
// event back at once, uncounted, for another worker.
func (w *Deliverer) deliverWebhookEvent(ctx context.Context, ev claimedEvent, record func(settlement)) error {
	actx, span := startDelivery(ctx, ev) // tracing.go
	out, err := w.attempt(actx, ev)
	endDelivery(span, out, err)
	if err != nil {
		return err
	}
	if ctx.Err() != nil && !out.ok() {
		sys := viewer.NewSystemContext(context.WithoutCancel(ctx))
		err := w.Client.WebhookEvent.Update().Where(webhookevent.ID(ev.ID), webhookevent.ClaimedBy(w.ID)).
			ClearClaimedBy().ClearLeaseUntil().Exec(sys)
		return store.WrapErr("releasing webhook event", err)
	}
	record(settlement{ev: ev.WebhookEvent, out: out})
	return nil
}

// attempt POSTs ev to its webhook's target. An inactive or deleted
// webhook is an outcome without a request.
func (w *Deliverer) attempt(ctx context.Context, ev claimedEvent) (attemptOutcome, error) {
	h := ev.hook
	if h == nil {
		return attemptOutcome{err: "the webhook was deleted", final: true}, nil
	}
	out := attemptOutcome{target: h.TargetURL}
	if !h.Active {
		out.err, out.final = "the webhook is not active", true
		return out, nil
	}
	body, err := Payload(ctx, ev.WebhookEvent)
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
	req.Header.Set(SignatureHeader, SignWebhook(ev.token, body))
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

// Truncate cuts s to at most n bytes on a rune boundary.
func Truncate(s string, n int) string {
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
func newWebhookClient(s Settings) *http.Client {
	dialer := &net.Dialer{Timeout: s.Timeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   s.Concurrency, // a loop's attempts to one receiver reuse their connections
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

package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// receiver is a webhook target (-hook-listen): it answers 204 at once and
// records, per event id, how long after the event's created_at it
// arrived (the delivery lag). Used by docs/bench/webhooks.sh.
type receiver struct {
	token string
	mu    sync.Mutex
	lags  map[string]time.Duration // first arrival of each event id
	bad   int                      // bodies that did not parse or whose signature was wrong
	dups  int                      // repeated arrivals of an id
	srv   *http.Server
}

func startReceiver(addr, token string) (*receiver, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	r := &receiver{token: token, lags: map[string]time.Duration{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	body, err := io.ReadAll(req.Body)
	var p struct {
		ID        string    `json:"id"`
		CreatedAt time.Time `json:"created_at"`
	}
	ok := err == nil && json.Unmarshal(body, &p) == nil && p.ID != ""
	if ok && r.token != "" {
		mac := hmac.New(sha256.New, []byte(r.token))
		mac.Write(body)
		ok = hmac.Equal([]byte(req.Header.Get("x-voucherify-signature")), []byte(hex.EncodeToString(mac.Sum(nil))))
	}
	r.mu.Lock()
	switch _, seen := r.lags[p.ID]; {
	case !ok:
		r.bad++
	case seen:
		r.dups++
	default:
		r.lags[p.ID] = at.Sub(p.CreatedAt)
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// received is how many distinct events have arrived.
func (r *receiver) received() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lags)
}

// drain waits until want distinct events have arrived or the time is up,
// then reports the lag percentiles.
func (r *receiver) drain(want int, limit time.Duration) {
	start := time.Now()
	for r.received() < want && time.Since(start) < limit {
		time.Sleep(20 * time.Millisecond)
	}
	waited := time.Since(start)
	_ = r.srv.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	lags := make([]time.Duration, 0, len(r.lags))
	for _, d := range r.lags {
		lags = append(lags, d)
	}
	fmt.Printf("webhooks: %d of %d events received (%.1f s after the load), %d bad, %d repeated\n",
		len(lags), want, waited.Seconds(), r.bad, r.dups)
	if len(lags) == 0 {
		return
	}
	slices.Sort(lags)
	pct := func(p float64) time.Duration { return lags[int(p*float64(len(lags)-1))] }
	fmt.Printf("delivery lag: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		ms(pct(0.5)), ms(pct(0.9)), ms(pct(0.99)), ms(lags[len(lags)-1]))
}

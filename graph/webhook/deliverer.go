package webhook

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Deliverer sends the outbox's webhook events to their targets, records
// the outcomes and prunes settled events. Any number of deliverers, in any
// number of server processes, may share one database: events are claimed
// with a lease (claim.go). The job worker runs one beside its jobs.
type Deliverer struct {
	// Client and Dialect are the database the outbox lives in.
	Client  *ent.Client
	Dialect string
	// Logger receives delivery failures.
	Logger *slog.Logger
	// ID names this deliverer in claims (default: host, pid and a random suffix).
	ID string
	// Poll is the pause between looks for due events when idle (default 500ms).
	Poll time.Duration
	// Webhooks tune delivery, retries and retention.
	Webhooks   Settings
	httpClient *http.Client
}

// Defaults fills the unset fields with their defaults.
func (w *Deliverer) Defaults() {
	if w.ID == "" {
		host, _ := os.Hostname()
		w.ID = fmt.Sprintf("%s/%d/%s", host, os.Getpid(), pulid.Hex(4))
	}
	if w.Poll <= 0 {
		w.Poll = 500 * time.Millisecond
	}
	if w.Logger == nil {
		w.Logger = slog.Default()
	}
	w.Webhooks.defaults()
	if w.httpClient == nil {
		w.httpClient = newWebhookClient(w.Webhooks)
	}
}

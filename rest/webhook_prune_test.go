package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest/resttest"
)

// outboxRow is a webhook event written straight into the outbox, settled
// (or not) at the given times, with attempts delivery rows.
type outboxRow struct {
	state                webhookevent.State
	nextAttempt, settled time.Time
	attempts             int
}

// writeOutbox stores rows for the webhook in the project's outbox and
// returns their ids.
func writeOutbox(t *testing.T, e *resttest.Env, projectID, hookID string, rows ...outboxRow) []string {
	t.Helper()
	ctx := viewer.NewContext(ent.NewContext(context.Background(), e.DB.Client), viewer.Viewer{ProjectID: projectID})
	var ids []string
	for start := 0; start < len(rows); start += 200 {
		var bulk []*ent.WebhookEventCreate
		for i, r := range rows[start:min(start+200, len(rows))] {
			c := e.DB.Client.WebhookEvent.Create().SetWebhookID(hookID).SetType("customer.created").
				SetObjectType("customer").SetObjectID(fmt.Sprintf("cust_%d", start+i)).SetData(`{}`).SetState(r.state).
				SetAttempts(r.attempts).SetNextAttemptAt(r.nextAttempt).SetRetrySince(r.nextAttempt).SetCreatedAt(r.nextAttempt)
			switch r.state {
			case webhookevent.StateDELIVERED:
				c.SetDeliveredAt(r.settled).SetUpdatedAt(r.settled)
			case webhookevent.StateFAILED:
				c.SetUpdatedAt(r.settled)
			}
			bulk = append(bulk, c)
		}
		evs, err := e.DB.Client.WebhookEvent.CreateBulk(bulk...).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var deliveries []*ent.WebhookDeliveryCreate
		for i, ev := range evs {
			ids = append(ids, ev.ID)
			for n := 1; n <= rows[start+i].attempts; n++ {
				deliveries = append(deliveries, e.DB.Client.WebhookDelivery.Create().SetEventID(ev.ID).SetWebhookID(hookID).
					SetAttempt(n).SetSuccess(false).SetDurationMs(1).SetTargetURL("http://127.0.0.1:9/never"))
			}
		}
		if len(deliveries) > 0 {
			if err := e.DB.Client.WebhookDelivery.CreateBulk(deliveries...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	return ids
}

// listedIDs lists the ids of a webhook's events (or delivery attempts'
// event ids) through the management API.
func listedIDs(t *testing.T, e *resttest.Env, mk resttest.Headers, hookID, what, field string) []string {
	t.Helper()
	var out []string
	for page := 1; ; page++ {
		list := must(t, e.Do(http.MethodGet, fmt.Sprintf("%s/%s/%s?limit=100&page=%d", hooksPath(e), hookID, what, page), nil, mk), http.StatusOK)
		data := list["data"].([]any)
		for _, item := range data {
			out = append(out, item.(map[string]any)[field].(string))
		}
		if len(data) < 100 {
			break
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestWebhookOutboxIsPruned: delivered and failed events settled longer than
// the retention ago vanish with their delivery attempts, in batches, by
// several workers at once; newer ones and pending ones stay.
func TestWebhookOutboxIsPruned(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	hookID := createHook(t, e, mk, "http://127.0.0.1:9/never", "customer.created")["id"].(string)
	now := time.Now().UTC()
	day := 24 * time.Hour
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	const retention = 30 * 24 * time.Hour

	var old []outboxRow // more than two batches of old delivered events
	for range 1100 {
		old = append(old, outboxRow{state: webhookevent.StateDELIVERED, nextAttempt: ago(31*day + time.Minute), settled: ago(31 * day), attempts: 1})
	}
	oldIDs := writeOutbox(t, e, e.Project.ProjectID, hookID, old...)
	oldIDs = append(oldIDs, writeOutbox(t, e, e.Project.ProjectID, hookID,
		outboxRow{state: webhookevent.StateFAILED, nextAttempt: ago(32 * day), settled: ago(31 * day), attempts: 3})...)
	kept := writeOutbox(t, e, e.Project.ProjectID, hookID,
		outboxRow{state: webhookevent.StateDELIVERED, nextAttempt: ago(29*day + time.Minute), settled: ago(29 * day), attempts: 2},
		// Failed within the retention: kept for redelivery, however old its first attempt.
		outboxRow{state: webhookevent.StateFAILED, nextAttempt: ago(40 * day), settled: ago(29 * day), attempts: 30},
		// Pending is never pruned, however old.
		outboxRow{state: webhookevent.StatePENDING, nextAttempt: ago(40 * day), attempts: 5},
	)
	// Another project's old events go too: the workers prune every project.
	other, otherTarget := e.NewProject("other"), "http://127.0.0.1:9/x"
	otherHook, err := webhook.CreateWebhook(viewer.NewContext(ent.NewContext(context.Background(), e.DB.Client),
		viewer.Viewer{ProjectID: other.ProjectID}), webhook.WebhookInput{TargetURL: &otherTarget, Events: []string{"customer.created"}})
	if err != nil {
		t.Fatal(err)
	}
	writeOutbox(t, e, other.ProjectID, otherHook.ID,
		outboxRow{state: webhookevent.StateDELIVERED, nextAttempt: ago(60 * day), settled: ago(60 * day), attempts: 1})

	// Two workers on two connection pools (two processes) prune at once.
	second, err := entdb.Open(context.Background(), e.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = second.Close() })
	var wg sync.WaitGroup
	deleted := make([]int, 2)
	errs := make([]error, 2)
	for i, c := range []*ent.Client{e.DB.Client, second.Client} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &job.Worker{Client: c, Dialect: e.DB.Dialect, Logger: quietLogger, Webhooks: webhook.Settings{Retention: retention}}
			deleted[i], errs[i] = w.PruneWebhookEvents(context.Background())
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("pruning: %v, %v", errs[0], errs[1])
	}
	if got, want := deleted[0]+deleted[1], len(oldIDs)+1; got != want {
		t.Errorf("the workers deleted %d + %d events, want %d in all", deleted[0], deleted[1], want)
	}
	slices.Sort(kept)
	if got := listedIDs(t, e, mk, hookID, "events", "id"); !slices.Equal(got, kept) {
		t.Errorf("events left: %v, want %v", got, kept)
	}
	// The delivery attempts of the kept events stay; the others' went with them.
	if got := listedIDs(t, e, mk, hookID, "deliveries", "event_id"); !slices.Equal(got, kept) {
		t.Errorf("delivery attempts left for events %v, want %v", got, kept)
	}
	sys := viewer.NewSystemContext(context.Background())
	if n, err := e.DB.Client.WebhookEvent.Query().Count(sys); err != nil || n != len(kept) {
		t.Errorf("outbox rows left in all projects: %d (%v), want %d", n, err, len(kept))
	}

	// A running worker prunes by itself.
	late := writeOutbox(t, e, e.Project.ProjectID, hookID,
		outboxRow{state: webhookevent.StateDELIVERED, nextAttempt: ago(45 * day), settled: ago(45 * day), attempts: 1})
	startWorker(t, e, e.DB.Client, webhook.Settings{Retention: retention, PruneEvery: 10 * time.Millisecond})
	waitFor(t, "the worker to prune", func() bool {
		return !slices.Contains(listedIDs(t, e, mk, hookID, "events", "id"), late[0])
	})
	if got := listedIDs(t, e, mk, hookID, "events", "id"); !slices.Equal(got, kept) {
		t.Errorf("events left after the worker pruned: %v, want %v", got, kept)
	}
}

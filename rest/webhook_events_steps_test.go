package rest_test

import (
	"regexp"
	"slices"
	"sort"
	"testing"
)

// The steps of TestEveryWebhookEventComesFromItsOperation
// (webhook_events_test.go) and the check of each event they send.

// wantEvent is an event a step must send: its type and its data keys, each
// with the `object` its value must carry ("" any object, "null" null).
type wantEvent struct {
	typ  string
	data map[string]string
}

// eventStep is one operation through REST and exactly the events it sends.
type eventStep struct {
	name  string
	do    func(t *testing.T)
	want  []wantEvent
	check func(t *testing.T, got map[string]hookPayload)
}

// checkEventPayload checks one payload's envelope and its data keys.
func checkEventPayload(t *testing.T, step string, p hookPayload, w wantEvent, projectID, hookID string) {
	t.Helper()
	if p.Object != "event" || p.ProjectID != projectID || p.WebhookID != hookID || !timestampRE.MatchString(p.CreatedAt) ||
		!regexp.MustCompile(`^whs_[0-9a-f]{32}$`).MatchString(p.ID) {
		t.Errorf("%s: %s envelope: %+v", step, w.typ, p)
	}
	var keys, wantKeys []string
	for k := range p.Data {
		keys = append(keys, k)
	}
	for k := range w.data {
		wantKeys = append(wantKeys, k)
	}
	sort.Strings(keys)
	sort.Strings(wantKeys)
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("%s: %s data keys %v, want %v", step, w.typ, keys, wantKeys)
		return
	}
	for k, object := range w.data {
		v := p.Data[k]
		if object == "null" {
			if v != nil {
				t.Errorf("%s: %s data.%s = %v, want null", step, w.typ, k, mustJSON(v))
			}
			continue
		}
		m, ok := v.(map[string]any)
		if !ok || m["id"] == nil && k != "balance" || object != "" && m["object"] != object {
			t.Errorf("%s: %s data.%s = %v, want an object %q", step, w.typ, k, mustJSON(v), object)
		}
	}
}

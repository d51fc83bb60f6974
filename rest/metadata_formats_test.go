package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestCustomEventFormattedMetadata: an event schema may declare date,
// datetime, geopoint and image_url properties (alone or as arrays); a
// custom event whose metadata has a bad date is refused with 400
// invalid_payload naming the property, and one with good values is
// accepted.
func TestCustomEventFormattedMetadata(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	ms := defineEvent(t, e, app, "visit", map[string]any{
		"day":      map[string]any{"type": "date"},
		"at":       map[string]any{"type": "datetime", "optional": true},
		"where":    map[string]any{"type": "geopoint", "optional": true},
		"photo":    map[string]any{"type": "image_url", "optional": true},
		"holidays": map[string]any{"type": "date", "array": true, "optional": true},
	})
	if typ := ms["properties"].(map[string]any)["where"].(map[string]any)["type"]; typ != "geopoint" {
		t.Fatalf("stored type %v", typ)
	}
	event := func(md map[string]any) resttest.Response {
		return e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "visit",
			"customer": map[string]any{"source_id": "alice"}, "metadata": md}, app)
	}
	for prop, md := range map[string]map[string]any{
		".metadata.day":         {"day": "2023-02-29"},
		".metadata.day ":        {"day": "01/05/2024"},
		".metadata.holidays[1]": {"day": "2024-05-01", "holidays": []any{"2024-12-25", "2024-12-32"}},
		".metadata.at":          {"day": "2024-05-01", "at": "2024-05-01 12:00"},
		".metadata.where":       {"day": "2024-05-01", "where": map[string]any{"latitude": 91, "longitude": 0}},
		".metadata.photo":       {"day": "2024-05-01", "photo": "ftp://example.com/a.png"},
	} {
		body := wantErrorKey(t, event(md), http.StatusBadRequest, "invalid_payload")
		if d, _ := body["details"].(string); !strings.Contains(d, strings.TrimSpace(prop)+" ") {
			t.Errorf("%v: details %q do not name %s", md, d, strings.TrimSpace(prop))
		}
	}
	good := map[string]any{"day": "2024-02-29", "at": "2024-05-01T12:30:00.250+02:00",
		"where": map[string]any{"latitude": 52.52, "longitude": 13.405}, "photo": "https://cdn.example.com/p.jpg",
		"holidays": []any{"2024-12-25", "2024-12-26"}}
	got := must(t, event(good), http.StatusOK)
	if mustJSON(got["metadata"]) != mustJSON(good) {
		t.Errorf("event metadata %s, want %s", mustJSON(got["metadata"]), mustJSON(good))
	}
}

package rest

import (
	"encoding/json"
	"testing"
	"time"
)

// TestTimestampJSON: a timestamp is the real service's UTC text with
// milliseconds, whatever the time's zone, and a missing one is null.
func TestTimestampJSON(t *testing.T) {
	at := time.Date(2026, 11, 26, 3, 2, 3, 456_789_000, time.FixedZone("CET", 3600))
	got, err := json.Marshal(map[string]any{"at": timestamp(at), "none": optionalTime(nil), "some": optionalTime(&at)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"at":"2026-11-26T02:02:03.456Z","none":null,"some":"2026-11-26T02:02:03.456Z"}`
	if string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

package httpkit

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
)

// TestTimestampJSON: a Timestamp is the real service's UTC text with
// milliseconds, whatever the time's zone, and a missing one is null, in
// encoding/json and in the response codec (goccy/go-json), as a value, a
// pointer and a struct field.
func TestTimestampJSON(t *testing.T) {
	at := time.Date(2026, 11, 26, 3, 2, 3, 456_789_000, time.FixedZone("CET", 3600))
	type fields struct {
		At   Timestamp  `json:"at"`
		None *Timestamp `json:"none"`
		Some *Timestamp `json:"some"`
	}
	want := `{"at":"2026-11-26T02:02:03.456Z","none":null,"some":"2026-11-26T02:02:03.456Z"}`
	for _, v := range []any{map[string]any{"at": Timestamp(at), "none": OptionalTime(nil), "some": OptionalTime(&at)},
		fields{At: Timestamp(at), Some: OptionalTime(&at)}, &fields{At: Timestamp(at), Some: OptionalTime(&at)}} {
		for name, marshal := range map[string]func(any) ([]byte, error){"encoding/json": json.Marshal, "goccy": gojson.Marshal} {
			got, err := marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("%s %T: got %s, want %s", name, v, got, want)
			}
		}
	}
}

// TestAppendTimestampIsAppendFormat: the hand-written formatting writes
// what time.Time.AppendFormat writes with timestampLayout, for times
// across the range, sub-millisecond digits truncated, and years out of
// 0–9999 (which fall back to AppendFormat).
func TestAppendTimestampIsAppendFormat(t *testing.T) {
	times := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(-1, 3, 4, 5, 6, 7, 8, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 20, 5, 9, 1_999_999, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		times = append(times, time.Unix(rng.Int64N(400_000_000_000)-62_000_000_000, rng.Int64N(1e9)).UTC())
	}
	for _, at := range times {
		if got, want := string(appendTimestamp(nil, at)), at.Format(timestampLayout); got != want {
			t.Fatalf("%v: got %s, want %s", at, got, want)
		}
	}
}

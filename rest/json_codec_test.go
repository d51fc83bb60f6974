package rest

import (
	"bytes"
	stdjson "encoding/json"
	"math"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// TestResponseCodecWritesWhatEncodingJSONWrites: the response codec must
// write byte for byte what encoding/json (with SetEscapeHTML(false), as
// gin's PureJSON) writes, for the kinds of values the REST shapes hold —
// with one known difference: a float below 1e-6 gets a two-digit exponent
// (1e-07 where encoding/json writes 1e-7), the same number to any JSON
// reader (checked apart, below).
func TestResponseCodecWritesWhatEncodingJSONWrites(t *testing.T) {
	name := "Zoë <b>&</b> \u2028 \"quoted\" \\ tab\t"
	at := time.Date(2026, 11, 26, 1, 2, 3, 456_000_000, time.UTC)
	type item struct {
		ID       string         `json:"id"`
		Amount   int64          `json:"amount"`
		Skipped  *string        `json:"skipped,omitempty"`
		Metadata map[string]any `json:"metadata"`
		When     *timestamp     `json:"when"`
		Raw      stdjson.RawMessage
	}
	when := timestamp(at)
	values := []any{
		gin.H{"id": "r_1", "object": "redemption", "date": timestamp(at), "customer_id": (*string)(nil),
			"metadata": map[string]any{}, "name": name, "order": map[string]any{"amount": int64(10000),
				"items": []any{map[string]any{"price": 1500.0, "quantity": 2}}, "ratio": 0.1 + 0.2, "big": 1e21,
				"neg": -0.0, "max": int64(math.MaxInt64), "nil": nil, "empty": []any{}}},
		[]any{gin.H{"z": 1, "a": true, "m": false}, "x", 3.5, nil},
		item{ID: "v_1", Amount: 7, Metadata: nil, When: &when, Raw: stdjson.RawMessage(`{"b":1,"a":[1, 2]}`)},
		&item{ID: "v_2", Metadata: map[string]any{"nested": map[string]any{"k": []string{"a", "b"}}}},
		map[string]string{"b": "2", "a": "1"},
	}
	for i, v := range values {
		var want bytes.Buffer
		std := stdjson.NewEncoder(&want)
		std.SetEscapeHTML(false)
		if err := std.Encode(v); err != nil {
			t.Fatalf("value %d: encoding/json: %v", i, err)
		}
		var got bytes.Buffer
		enc := responseCodec{}.NewEncoder(&got)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatalf("value %d: response codec: %v", i, err)
		}
		if got.String() != want.String() {
			t.Errorf("value %d:\nresponse codec %s\nencoding/json  %s", i, got.String(), want.String())
		}
	}
	// Tiny floats: another spelling, the same values.
	tiny := map[string]any{"small": 1e-7, "smaller": -2.5e-12}
	want, _ := stdjson.Marshal(tiny)
	got, err := responseCodec{}.Marshal(tiny)
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	if err := stdjson.Unmarshal(got, &a); err != nil {
		t.Fatalf("response codec wrote %s: %v", got, err)
	}
	_ = stdjson.Unmarshal(want, &b)
	if a["small"] != b["small"] || a["smaller"] != b["smaller"] {
		t.Errorf("tiny floats: response codec %s, encoding/json %s", got, want)
	}
}

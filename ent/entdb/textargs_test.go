package entdb

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestAsTextSendsByteSlicesAsText(t *testing.T) {
	now := time.Now()
	in := []any{[]byte(`{"a":1}`), json.RawMessage(`[1]`), []byte(nil), "s", int64(7), now, nil}
	got := asText(in).([]any)
	want := []any{`{"a":1}`, `[1]`, nil, "s", int64(7), now, nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("asText = %#v, want %#v", got, want)
	}
	if _, isBytes := in[0].([]byte); !isBytes {
		t.Error("asText modified its input")
	}
	if other := asText("not a list"); other != "not a list" {
		t.Errorf("asText(non-list) = %v", other)
	}
}

func TestWithBinaryParameters(t *testing.T) {
	cases := map[string]string{
		"postgres://h/db":                          "postgres://h/db?binary_parameters=yes",
		"postgres://h/db?sslmode=disable":          "postgres://h/db?sslmode=disable&binary_parameters=yes",
		"postgres://h/db?binary_parameters=no&x=1": "postgres://h/db?binary_parameters=no&x=1",
	}
	for in, want := range cases {
		if got := withBinaryParameters(in); got != want {
			t.Errorf("withBinaryParameters(%q) = %q, want %q", in, got, want)
		}
	}
}

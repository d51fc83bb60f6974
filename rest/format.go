package rest

import (
	"time"
)

// timestampLayout is how every timestamp is written: ISO 8601, UTC,
// milliseconds, Z (2022-09-30T16:30:32.924Z).
const timestampLayout = "2006-01-02T15:04:05.000Z"

// timestamp marshals a time in timestampLayout.
type timestamp time.Time

// MarshalJSON implements json.Marshaler. The layout's output (digits,
// '-', ':', '.', 'T', 'Z') needs no escaping, so it is quoted as is.
func (t timestamp) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(timestampLayout)+2)
	b = append(b, '"')
	b = time.Time(t).UTC().AppendFormat(b, timestampLayout)
	return append(b, '"'), nil
}

// optionalTime is a timestamp, or null when t is nil.
func optionalTime(t *time.Time) *timestamp {
	if t == nil {
		return nil
	}
	ts := timestamp(*t)
	return &ts
}

// listEnvelope is the v1 list envelope.
type listEnvelope[T any] struct {
	Object  string `json:"object"`
	DataRef string `json:"data_ref"`
	Data    []T    `json:"data"`
	Total   int    `json:"total"`
}

// newList wraps items in the v1 list envelope (never a null data array).
func newList[T any](items []T, total int) listEnvelope[T] {
	if items == nil {
		items = []T{}
	}
	return listEnvelope[T]{Object: "list", DataRef: "data", Data: items, Total: total}
}

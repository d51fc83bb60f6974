package customer

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/segmentfilter"
)

// The filter language itself is tested in graph/segmentfilter; these tests
// cover the translation between it and the use cases.

func TestSegmentFilterCustomer(t *testing.T) {
	s := func(v string) *string { return &v }
	meta := map[string]any{"tier": "gold", "visits": json.Number("12")}
	counts := map[string]int{"purchase": 3}
	cases := []struct {
		name string
		in   *ent.Customer
		want segmentfilter.Customer
	}{
		{"every field", &ent.Customer{ID: "cust_1", Name: s("Ann"), Email: s("ann@vip.example"), SourceID: s("src-1"),
			Phone: s("+48 600"), Description: s("VIP"), Birthday: s("1990-04-01"), Metadata: meta},
			segmentfilter.Customer{ID: "cust_1", Name: "Ann", Email: "ann@vip.example", SourceID: "src-1", Phone: "+48 600",
				Description: "VIP", Birthday: "1990-04-01", Metadata: meta, EventCounts: counts}},
		{"unset fields are unknown", &ent.Customer{ID: "cust_2"},
			segmentfilter.Customer{ID: "cust_2", EventCounts: counts}},
	}
	for _, tc := range cases {
		if got := filterCustomer(tc.in, counts); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestMatchCustomer evaluates filters on an ent customer end to end
// (through filterCustomer), as fillSegment and reevaluateSegments do.
func TestMatchCustomer(t *testing.T) {
	email, name := "ann@vip.example", "Ann"
	cust := &ent.Customer{ID: "cust_1", Email: &email, Name: &name,
		Metadata: map[string]any{"tier": "gold", "visits": json.Number("12"), "score": 4.5}}
	counts := map[string]int{"purchase": 3}
	cond := func(op string, v any) map[string]any { return map[string]any{"conditions": map[string]any{op: v}} }
	cases := []struct {
		name   string
		filter map[string]any
		want   bool
	}{
		{"count more than string", map[string]any{"events.purchase.count": cond("$more_than", []any{"2"})}, true},
		{"email contains, case-insensitive", map[string]any{"email": cond("$contains", []any{"@VIP."})}, true},
		{"name in", map[string]any{"name": cond("$in", []any{"Bob", "Ann"})}, true},
		{"source_id unknown", map[string]any{"source_id": cond("$is_unknown", true)}, true},
		{"phone has value", map[string]any{"phone": cond("$has_value", true)}, false},
		{"metadata number vs string", map[string]any{"metadata.visits": cond("$more_than_equal", "12")}, true},
		{"or: one holds", map[string]any{"junction": "or", "metadata.tier": cond("$is", "silver"), "name": cond("$is", "Ann")}, true},
	}
	for _, tc := range cases {
		f, err := parseSegmentFilter(tc.filter)
		if err != nil {
			t.Fatalf("%s: invalid filter: %v", tc.name, err)
		}
		if got := f.Match(filterCustomer(cust, counts)); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestParseSegmentFilterErrors: a filter that breaks the language is
// invalid_payload whose details are the language's message.
func TestParseSegmentFilterErrors(t *testing.T) {
	cases := []struct {
		filter  map[string]any
		details string
	}{
		{map[string]any{"junction": "xor"}, "Property .filter.junction must be and or or"},
		{map[string]any{"color": map[string]any{"conditions": map[string]any{"$is": "red"}}},
			"Property .filter.color is not a supported filter: use events.<name>.count, metadata.<key> or one of [id name email source_id phone description birthday]"},
		{map[string]any{"name": "Ann"}, "Property .filter.name must be an object with conditions"},
		{map[string]any{"name": map[string]any{"conditions": map[string]any{}}}, "Property .filter.name must have a non-empty conditions object"},
		{map[string]any{"metadata.x": map[string]any{"conditions": map[string]any{"$near": 1}}},
			"Property .filter.metadata.x.conditions.$near is not a supported operator"},
	}
	for _, tc := range cases {
		_, err := parseSegmentFilter(tc.filter)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Key != "invalid_payload" || ae.Code != 400 || ae.Details != tc.details {
			t.Errorf("%v: got %#v, want invalid_payload %q", tc.filter, err, tc.details)
		}
	}
}

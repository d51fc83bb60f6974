package metadata

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/graph/apperr"
)

// TestMetadataTypeDefinitions: every type of the reference's enum is
// accepted, alone and as an array; options a type does not take are
// refused on the new types as on the old ones; anything else is refused.
func TestMetadataTypeDefinitions(t *testing.T) {
	for _, typ := range []string{"string", "number", "object", "date", "datetime", "geopoint", "boolean", "image_url"} {
		for _, def := range []map[string]any{{"type": typ}, {"type": typ, "array": true, "optional": true}} {
			p, err := metadataProperty("p", def)
			if err != nil || p.Type != typ || p.Array != (def["array"] == true) {
				t.Errorf("definition %v: %+v, %v", def, p, err)
			}
		}
	}
	for _, c := range []struct {
		def    map[string]any
		detail string
	}{
		{map[string]any{"type": "time"}, ".properties.p.type must be one of"},
		{map[string]any{"type": "Date"}, ".properties.p.type must be one of"},
		{map[string]any{"type": "date", "min_length": 10}, ".properties.p.min_length is available only for the string type"},
		{map[string]any{"type": "datetime", "max_length": 30}, ".properties.p.max_length is available only"},
		{map[string]any{"type": "image_url", "exact_length": 5}, ".properties.p.exact_length is available only"},
		{map[string]any{"type": "date", "eq": []any{"2024-01-01"}}, ".properties.p.eq is available only for the string and number type"},
		{map[string]any{"type": "geopoint", "gte": 0}, ".properties.p.gte is available only for the number type"},
		{map[string]any{"type": "datetime", "ne": []any{1}}, ".properties.p.ne is available only"},
		{map[string]any{"type": "image_url", "object_type": "picture"}, ".properties.p.object_type is available only for the object type"},
	} {
		_, err := metadataProperty("p", c.def)
		if err == nil || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("definition %v: error %v, want one naming %q", c.def, err, c.detail)
		}
	}
}

// TestMetadataFormattedValues: values of date, datetime, image_url and
// geopoint properties, valid and invalid, alone and in arrays; errors are
// 400 invalid_payload naming the property (and the element of an array).
func TestMetadataFormattedValues(t *testing.T) {
	geo := func(lat, lon any) map[string]any { return map[string]any{"latitude": lat, "longitude": lon} }
	for _, c := range []struct {
		typ   string
		array bool
		v     any
		ok    bool
	}{
		{"date", false, "2024-02-29", true}, // leap day
		{"date", false, "1999-12-31", true},
		{"date", false, "2023-02-29", false}, // not a leap year
		{"date", false, "2024-04-31", false},
		{"date", false, "2024-13-01", false},
		{"date", false, "2024-1-05", false},
		{"date", false, "05/01/2024", false},
		{"date", false, "2024-05-01T00:00:00Z", false},
		{"date", false, "", false},
		{"date", false, json.Number("20240501"), false},
		{"datetime", false, "2024-05-01T12:30:00Z", true},
		{"datetime", false, "2024-05-01T12:30:00.123Z", true},
		{"datetime", false, "2024-05-01T14:30:00+02:00", true},
		{"datetime", false, "2024-05-01T14:30:00.123456789-05:30", true},
		{"datetime", false, "2024-05-01T12:30:00", false}, // no time zone
		{"datetime", false, "2024-05-01", false},
		{"datetime", false, "2024-05-01T25:00:00Z", false},
		{"datetime", false, "2024-02-30T12:00:00Z", false},
		{"datetime", false, "2024-05-01T12:30:00+0200", false},
		{"datetime", false, "yesterday", false},
		{"datetime", false, int64(1714566600), false},
		{"image_url", false, "https://cdn.example.com/a/b.png?w=200", true},
		{"image_url", false, "http://example.com/img", true},
		{"image_url", false, "HTTPS://EXAMPLE.COM/X.JPG", true},
		{"image_url", false, "ftp://example.com/a.png", false},
		{"image_url", false, "/images/a.png", false},
		{"image_url", false, "example.com/a.png", false},
		{"image_url", false, "https://", false},
		{"image_url", false, "http://:80/a.png", false},
		{"image_url", false, "javascript:alert(1)", false},
		{"image_url", false, " https://example.com/a.png", false},
		{"image_url", false, true, false},
		{"geopoint", false, geo(json.Number("52.52"), json.Number("13.405")), true},
		{"geopoint", false, geo(int64(-90), int64(180)), true},
		{"geopoint", false, geo(90.0, -180.0), true},
		{"geopoint", false, geo(90.01, 0.0), false},
		{"geopoint", false, geo(0.0, -180.5), false},
		{"geopoint", false, geo("52.5", "13.4"), false},
		{"geopoint", false, map[string]any{"latitude": 1.0}, false},
		{"geopoint", false, map[string]any{"lat": 1.0, "lng": 2.0}, false},
		{"geopoint", false, map[string]any{"latitude": 1.0, "longitude": 2.0, "altitude": 3.0}, false},
		{"geopoint", false, []any{13.4, 52.5}, false},
		{"geopoint", false, "52.5,13.4", false},
		{"date", true, []any{"2024-01-01", "2024-12-31"}, true},
		{"date", true, []any{}, true},
		{"date", true, []any{"2024-01-01", "2024-02-30"}, false},
		{"date", true, "2024-01-01", false},
		{"datetime", true, []any{"2024-01-01T00:00:00Z"}, true},
		{"datetime", true, []any{"2024-01-01T00:00:00"}, false},
		{"image_url", true, []any{"https://a.example/1.png", "https://a.example/2.png"}, true},
		{"image_url", true, []any{"https://a.example/1.png", "a.png"}, false},
		{"geopoint", true, []any{geo(1.0, 2.0), geo(-3.0, -4.0)}, true},
		{"geopoint", true, []any{geo(1.0, 2.0), geo(100.0, 0.0)}, false},
		{"geopoint", true, geo(1.0, 2.0), false},
	} {
		def := map[string]any{"type": c.typ, "array": c.array}
		p, err := metadataProperty("p", def)
		if err != nil {
			t.Fatalf("definition %v: %v", def, err)
		}
		err = CheckMetadataValue("p", p, c.v)
		if (err == nil) != c.ok {
			t.Errorf("%s (array %v) %#v: error %v, want ok=%v", c.typ, c.array, c.v, err, c.ok)
			continue
		}
		if err == nil {
			continue
		}
		if e, ok := apperr.As(err); !ok || e.Code != 400 || e.Key != "invalid_payload" || !strings.HasPrefix(e.Details, "Property .metadata.p") {
			t.Errorf("%s %#v: error %#v, want 400 invalid_payload naming .metadata.p", c.typ, c.v, err)
		}
		if arr, ok := c.v.([]any); ok && c.array && len(arr) == 2 && !strings.Contains(err.Error(), ".metadata.p[1] ") {
			t.Errorf("%s %#v: error %v does not name the element", c.typ, c.v, err)
		}
	}
}

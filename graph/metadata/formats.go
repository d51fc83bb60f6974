package metadata

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Values of the metadata types that carry a format rather than a plain
// JSON kind: date, datetime, image_url and geopoint (property.go
// checks the others). The reference names these types but does not say
// what their values look like; the choices below are documented in
// docs/events.md.

// metadataFormatProblem says what is wrong with v as a value of type typ
// (one of date, datetime, image_url, geopoint); "" when v is fine.
func metadataFormatProblem(typ string, v any) string {
	switch typ {
	case "date":
		if s, ok := v.(string); !ok || !isCalendarDate(s) {
			return `must be a date "YYYY-MM-DD" (a real calendar date)`
		}
	case "datetime":
		if s, ok := v.(string); !ok || !isDateTime(s) {
			return `must be an ISO 8601 date-time with a time zone, e.g. "2024-05-01T12:30:00Z" or "2024-05-01T14:30:00.5+02:00"`
		}
	case "image_url":
		if s, ok := v.(string); !ok || !isHTTPURL(s) {
			return "must be an absolute http or https URL"
		}
	case "geopoint":
		return geopointProblem(v)
	}
	return ""
}

// isCalendarDate: exactly YYYY-MM-DD, and a day that exists (no 2023-02-29).
func isCalendarDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// isDateTime: an RFC 3339 date-time (ISO 8601 profile), with or without
// fractional seconds, with Z or a ±hh:mm offset.
func isDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// isHTTPURL: an absolute http or https URL with a host name.
func isHTTPURL(s string) bool {
	if strings.TrimSpace(s) != s {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return false
	}
	return u.Scheme == "http" || u.Scheme == "https" // url.Parse lower-cases the scheme
}

// geopointAxes are a geopoint's members and their ranges in degrees.
var geopointAxes = map[string]float64{"latitude": 90, "longitude": 180}

// geopointProblem: a geopoint is {"latitude": -90…90, "longitude":
// -180…180}, both numbers, nothing else.
func geopointProblem(v any) string {
	const want = `must be an object {"latitude": number from -90 to 90, "longitude": number from -180 to 180}`
	obj, ok := v.(map[string]any)
	if !ok {
		return want
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if _, ok := geopointAxes[k]; !ok {
			return fmt.Sprintf("%s; %q is not a geopoint member", want, k)
		}
	}
	for _, axis := range slices.Sorted(maps.Keys(geopointAxes)) {
		raw, ok := obj[axis]
		if !ok || raw == nil {
			return fmt.Sprintf("%s; %s is missing", want, axis)
		}
		f, ok := metadataNumber(raw)
		if !ok || f < -geopointAxes[axis] || f > geopointAxes[axis] {
			return fmt.Sprintf("%s; %s is %v", want, axis, raw)
		}
	}
	return ""
}

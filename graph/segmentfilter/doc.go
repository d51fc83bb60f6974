// Package segmentfilter is the filter language of auto-update customer
// segments: it validates a segment's "filter" object (Parse) and decides
// whether a customer belongs to the segment (Filter.Match). It is pure: no
// storage, no HTTP, standard library only. The use cases in graph/ read the
// customer and its event counters, turn them into a Customer, and store the
// membership; docs/events.md ("Segments") describes the API around it.
//
// A filter arrives as the JSON object of POST /v1/segments:
//
//	{"junction": "and",
//	 "events.purchase.count": {"conditions": {"$more_than": ["2"]}},
//	 "metadata.tier":         {"conditions": {"$in": ["gold", "silver"]}},
//	 "email":                 {"conditions": {"$ends_with": "@example.com"}}}
//
// # Fields (the keys of the filter)
//
//   - events.<name>.count: the customer's counter of custom event <name>
//     (Customer.EventCounts; 0 when the customer never sent it). Everything
//     between "events." and ".count" is the name, dots included.
//   - metadata.<key>: the customer's metadata value under <key> (everything
//     after "metadata." is one key, dots included); absent is unknown.
//   - id, name, email, source_id, phone, description, birthday: the
//     customer's profile fields; "" is unknown.
//   - junction: "and" (the default) or "or", how the other keys combine.
//
// Any other key is an error. Every field key holds
// {"conditions": {<operator>: <operand>, …}} with at least one operator;
// the key holds when ALL its operators hold.
//
// # Operators
//
// An operand is a scalar or an array of scalars, strings or numbers: ["1"]
// and 1 are the same operand. A value is unknown when it is absent, null or
// the empty string.
//
//   - $is, $in: some operand equals the value (false when unknown).
//   - $is_not, $not_in: no operand equals the value (true when unknown).
//     Equality is numeric when both sides read as numbers (12, 12.0, "12",
//     " 12 "), otherwise textual (a non-string value as its JSON text).
//   - $contains, $not_contain, $starts_with, $ends_with: case-insensitive
//     text tests against any operand; $contains, $starts_with and $ends_with
//     are false when the value is unknown, $not_contain is true.
//   - $has_value, $is_unknown: the value is known / unknown; the operand is
//     ignored.
//   - $more_than, $less_than, $more_than_equal, $less_than_equal: numeric
//     comparison with the first operand; false when either side is not a
//     number (so an unknown value never matches).
//
// # Junctions
//
// With "and" a customer matches when every field key holds; with "or" when
// at least one does. A filter without field keys matches every customer,
// whatever its junction.
//
// # Errors
//
// Parse reports the first problem (keys in sorted order) as an *Error
// whose message is the API's invalid_payload detail, e.g.
// "Property .filter.events.purchase.count.conditions.$near is not a
// supported operator"; the use case passes it on unchanged. Match on an
// invalid filter is false for every customer (filters are validated before
// they are stored, so this only guards against bad rows).
package segmentfilter

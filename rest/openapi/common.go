package openapi

import (
	"net/http"
	"strings"
)

// commonSchemas are the shapes every area shares: the error object and the
// list envelopes' parts.
func commonSchemas(a *API) {
	a.Schema("Error", Object(
		Req("code", Integer().Desc("The HTTP status.")),
		Req("key", String().Desc("Short error kind (not_found, invalid_payload, ...).")),
		Req("message", String().Desc("Short human-readable text.")),
		Opt("details", String().Desc("Longer human-readable text.")),
		Req("request_id", String().Desc("The request's id (also in X-Request-Id), for support.")),
		Opt("resource_id", String().Desc("ID of the related resource.")),
		Opt("resource_type", String().Desc("Type of the related resource.")),
		Opt("error", Object(Req("message", String())).Desc("A failing validation rule's own error.message, when it sets one.")),
	).Desc("The error object of every failure."))
	a.Schema("V2Cursor", Object(
		Req("next", String().Desc("Pass as the cursor query parameter to get the next page.")),
		Req("expires_at", DateTime()),
	).Desc("Where the next page of a v2 list starts; opaque and expiring."))
	a.Schema("AsyncActionStarted", Object(
		Req("async_action_id", String().Desc("Poll GET /v1/async-actions/{id} for the outcome.")),
	))
}

// Metadata is a key/value object the caller chooses.
func Metadata() *Schema { return FreeObject().Desc("Key/value pairs.") }

// V1List is the v1 list envelope: object "list", data_ref naming the key
// that holds the array, the array, and (withTotal) the total count.
func V1List(dataRef string, item *Schema, withTotal bool) *Schema {
	s := Object(
		Req("object", Const("list")),
		Req("data_ref", Const(dataRef)),
		Req(dataRef, Array(item)),
	)
	if withTotal {
		s = s.With(Req("total", Integer().Desc("Number of items matching the query on all pages. "+
			"Counted up to 10,000: a larger result shows 10,000 (the pages reach item 9,900 at most), "+
			"except vouchers filtered by campaign alone, whose total is the campaign's voucher count.")))
	}
	return s
}

// V2List is the v2 list envelope: data, cursor (null on the last page) and
// object "list".
func V2List(item *Schema) *Schema {
	return Object(
		Req("data", Array(item)),
		Req("cursor", Ref("V2Cursor").Null()),
		Req("object", Const("list")),
	)
}

// Common query parameters.
var (
	// LimitParam is the page size of v1 and v2 lists (1-100, default 10).
	LimitParam = Query("limit", Integer().Range(1, 100), "Items per page (1-100, default 10).")
	// PageParam is the page number of v1 lists (from 1).
	PageParam = Query("page", Integer().Range(1, 99), "Page number (1-99, default 1).")
	// CursorParam continues a v2 list.
	CursorParam = Query("cursor", String(), "The cursor.next of the previous page.")
)

// OrderParam is the sort order of a list: one of fields, "-" for
// descending.
func OrderParam(fields ...string) Param {
	var values []string
	for _, f := range fields {
		values = append(values, f, "-"+f)
	}
	return Query("order", Enum(values...), "Sort order: a field, with - for descending.")
}

// errorResponseRef is the response component of an error status (named
// by its status text, NotFound for 404); the component is added to the
// document.
func (a *API) errorResponseRef(code int) *response {
	name := errorResponseName(code)
	if name == "" {
		return &response{Ref: "#/components/responses/Error"}
	}
	if _, ok := a.responses[name]; !ok {
		r := errorResponse(http.StatusText(code) + ": the error object.")
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			r.Headers["Retry-After"] = &header{Ref: "#/components/headers/RetryAfter"}
		}
		a.responses[name] = r
	}
	return &response{Ref: "#/components/responses/" + name}
}

var nameReplacer = strings.NewReplacer(" ", "", "-", "")

// errorResponseName names the response component of an error status
// (NotFound for 404; "" for a status without a name).
func errorResponseName(code int) string { return nameReplacer.Replace(http.StatusText(code)) }

// errorResponse is a response with the error object.
func errorResponse(description string) *response {
	return &response{Description: description,
		Headers: map[string]*header{"X-Request-Id": {Ref: "#/components/headers/RequestId"}},
		Content: map[string]*mediaType{"application/json": {Schema: Ref("Error")}}}
}

// header is a response header (or a reference to one).
type header struct {
	Ref         string  `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	Schema      *Schema `json:"schema,omitempty"`
}

func responseHeaders() map[string]*header {
	return map[string]*header{
		"RequestId": {Description: "The request's id: the caller's own X-Request-Id when it sent a sane one.",
			Schema: String()},
		"RateLimitLimit":     {Description: "Requests per minute the key may make.", Schema: Integer()},
		"RateLimitRemaining": {Description: "Requests the key may still make this minute.", Schema: Integer()},
		"IdempotentReplayed": {Description: "true: the answer of an earlier request with the same Idempotency-Key.",
			Schema: Enum("true")},
		"RetryAfter": {Description: "Seconds to wait before retrying.", Schema: Integer()},
	}
}

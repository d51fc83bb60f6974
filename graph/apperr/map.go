package apperr

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/lifecycle"
)

// From returns the caller-facing error for err: an *Error found in its
// chain, or the mapping of a known ent error. ok is false for anything else,
// which the transports log and show as Internal().
func From(err error) (e *Error, ok bool) {
	if e, ok := As(err); ok {
		return e, true
	}
	var te *lifecycle.TransitionError
	if errors.As(err, &te) {
		return &Error{Code: http.StatusConflict, Key: "invalid_state_transition", Message: "Invalid state transition",
			Details: te.Error(), ResourceID: te.ID, ResourceType: strings.ReplaceAll(te.Resource, " ", "_")}, true
	}
	var nf *ent.NotFoundError
	if errors.As(err, &nf) {
		return &Error{Code: http.StatusNotFound, Key: "not_found", Message: "Resource not found",
			Details: "Cannot find " + strings.TrimPrefix(nf.Error(), "ent: ")}, true
	}
	var ve *ent.ValidationError
	if errors.As(err, &ve) {
		return InvalidPayload("Property .%s is invalid", ve.Name), true
	}
	if ent.IsConstraintError(err) {
		return Duplicate("", "The resource conflicts with an existing one"), true
	}
	if e, ok := dataException(err); ok {
		return e, true
	}
	if e, ok := unavailable(err); ok {
		return e, true
	}
	if errors.Is(err, schema.ErrNoViewer) {
		// Project data asked for without project credentials (e.g. a project
		// field on /management/graphql).
		return &Error{Code: http.StatusUnauthorized, Key: "unauthorized", Message: "Unauthorized",
			Details: "This operation needs a project's application keys or an OAuth token"}, true
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: 499, Key: "request_cancelled", Message: "Request cancelled"}, true
	}
	return nil, false
}

// dataException maps PostgreSQL's data exceptions (SQLSTATE class 22) —
// values the database refuses to store, such as text holding a NUL
// character — to 400 invalid_payload, without the database's wording.
// SQLite stores such values, so the same request succeeds there.
func dataException(err error) (*Error, bool) {
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || pqErr.Code.Class() != "22" {
		return nil, false
	}
	switch pqErr.Code {
	case "22021", "22P05": // character_not_in_repertoire, untranslatable_character
		return InvalidPayload("Text values must not contain NUL (\\u0000) characters"), true
	case "22001": // string_data_right_truncation
		return InvalidPayload("A text value is longer than allowed"), true
	}
	return InvalidPayload("A value in the request cannot be stored (out of range or malformed)"), true
}

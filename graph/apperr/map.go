package apperr

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/promoengine/promoengine/ent"
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
	if errors.Is(err, context.Canceled) {
		return &Error{Code: 499, Key: "request_cancelled", Message: "Request cancelled"}, true
	}
	return nil, false
}

// Package apperr is promoengine's one error type. Use cases return *Error
// for anything a caller did wrong; REST renders it as the real service's
// error object and GraphQL puts Code and Key into extensions. Anything that
// is not an *Error (or a mapped ent error) is an internal error: logged,
// and shown to the caller without details.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a failure the caller can act on.
type Error struct {
	// Code is the HTTP status.
	Code int
	// Key is the short, stable error kind (e.g. "not_found").
	Key string
	// Message is a short human-readable text.
	Message string
	// Details is a longer text that names the offending field or value.
	Details string
	// ResourceID and ResourceType name the related resource, when there is one.
	ResourceID   string
	ResourceType string
	// CustomMessage is a validation rule's own error.message, shown beside
	// Message as the error object's error.message ("" = none).
	CustomMessage string
	// RetryAfter, when positive, is how many seconds the caller should wait
	// before trying again (sent as the Retry-After header).
	RetryAfter int
}

// Error implements error.
func (e *Error) Error() string {
	if e.Details != "" {
		return fmt.Sprintf("%s: %s", e.Message, e.Details)
	}
	return e.Message
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// NotFound reports that no resource of resourceType has the given id.
func NotFound(resourceType, id string) *Error {
	return &Error{
		Code: http.StatusNotFound, Key: "not_found", Message: "Resource not found",
		Details:    fmt.Sprintf("Cannot find %s with id %s", resourceType, id),
		ResourceID: id, ResourceType: resourceType,
	}
}

// InvalidPayload reports a request body that breaks a rule; details names the field.
func InvalidPayload(format string, args ...any) *Error {
	return &Error{
		Code: http.StatusBadRequest, Key: "invalid_payload", Message: "Invalid payload",
		Details: fmt.Sprintf(format, args...),
	}
}

// InvalidQueryParams reports a query parameter that breaks a rule.
func InvalidQueryParams(format string, args ...any) *Error {
	return &Error{
		Code: http.StatusBadRequest, Key: "invalid_query_params", Message: "Invalid query params",
		Details: fmt.Sprintf(format, args...),
	}
}

// Unauthorized reports missing or wrong credentials.
func Unauthorized() *Error {
	return &Error{Code: http.StatusUnauthorized, Key: "unauthorized", Message: "Unauthorized"}
}

// Forbidden reports valid credentials that do not allow the operation.
func Forbidden(details string) *Error {
	return &Error{Code: http.StatusForbidden, Key: "forbidden", Message: "Forbidden", Details: details}
}

// MissingParameters reports a required form or query parameter that is absent.
func MissingParameters(details string) *Error {
	return &Error{Code: http.StatusBadRequest, Key: "missing_parameters", Message: "Missing parameters", Details: details}
}

// MissingFeature reports that the project's plan lacks the feature an
// operation needs (402, as the real service answers).
func MissingFeature(feature string) *Error {
	return &Error{
		Code: http.StatusPaymentRequired, Key: "missing_required_feature", Message: "Payment required",
		Details: "Your current plan does not include a feature required to perform this operation (" + feature + ").",
	}
}

// Duplicate reports a resource that already exists.
func Duplicate(resourceType, details string) *Error {
	return &Error{
		Code: http.StatusConflict, Key: "duplicate_found", Message: "Duplicated resource found",
		Details: details, ResourceType: resourceType,
	}
}

// New returns an Error with the given status, key, message and details.
func New(code int, key, message, details string) *Error {
	return &Error{Code: code, Key: key, Message: message, Details: details}
}

// Internal is what callers see of an unexpected failure.
func Internal() *Error {
	return &Error{Code: http.StatusInternalServerError, Key: "internal_error", Message: "Internal server error"}
}

package graph

import (
	"context"
	"net/http"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
)

type responseWriterKey struct{}

// withResponseWriter keeps the endpoint's writer in the request context for
// unavailableStatus (guardHTTP).
func withResponseWriter(ctx context.Context, w http.ResponseWriter) context.Context {
	return context.WithValue(ctx, responseWriterKey{}, w)
}

// unavailableStatus is a response middleware that sets the HTTP status of
// an answer (setUnavailableStatus) before the transport writes it, on GET
// and POST alike: the transports write a successful answer without a
// status of their own, so the one set here stands. Later answers of the
// same request (incremental delivery) change nothing.
func unavailableStatus(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if w, ok := ctx.Value(responseWriterKey{}).(http.ResponseWriter); ok {
		setUnavailableStatus(w, resp)
	}
	return resp
}

// setUnavailableStatus gives a GraphQL answer that failed because the
// database could not serve it (an error of code 503, apperr.Unavailable)
// the HTTP status 503 and its Retry-After header instead of 200, so load
// balancers, retrying clients and monitoring see the outage as they do on
// REST. The body is the usual GraphQL answer. It reports whether it wrote
// the status.
func setUnavailableStatus(w http.ResponseWriter, resp *graphql.Response) bool {
	if resp == nil {
		return false
	}
	for _, e := range resp.Errors {
		if code, _ := e.Extensions["code"].(int); code != http.StatusServiceUnavailable {
			continue
		}
		if retry, _ := e.Extensions["retry_after"].(int); retry > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(retry))
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	return false
}

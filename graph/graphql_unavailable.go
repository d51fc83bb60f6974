package graph

import (
	"net/http"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
)

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

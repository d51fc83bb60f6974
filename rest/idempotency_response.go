package rest

// Which answers an idempotent request keeps for replay, and the writer
// that records them (idempotency.go runs the request).

import (
	"bytes"
	"encoding/json"
	"net/http"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
)

// storable says whether an answer is kept for replay. Not kept, so that a
// retry with the same key acts again: server errors (the request's
// transaction rolled back), 429 and refused credentials or permissions
// (401, 403: nothing ran, and settings may change), GraphQL answers
// carrying such an error (GraphQL answers 200 with errors) or a persisted
// query miss, a 409 resource_locked (a row held beyond the lock timeout:
// nothing was written), and bodies PostgreSQL text cannot hold (invalid
// UTF-8, NUL).
func storable(status int, body []byte, route string) bool {
	if retryableStatus(status) || !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return false
	}
	if status == http.StatusConflict && bytes.Contains(body, []byte(`"key":"resource_locked"`)) {
		return false
	}
	return route != "/graphql" || !graphQLRetryable(body)
}

func retryableStatus(code int) bool {
	return code >= 500 || code == http.StatusTooManyRequests ||
		code == http.StatusUnauthorized || code == http.StatusForbidden
}

// graphQLRetryable reports a GraphQL answer with an error that
// retryableStatus refuses to store, or a persisted-query miss (the client
// resends the query in full, a different body, under the same key).
func graphQLRetryable(body []byte) bool {
	if !bytes.Contains(body, []byte(`"errors"`)) {
		return false
	}
	var resp struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &resp) != nil {
		return true
	}
	for _, e := range resp.Errors {
		if e.Extensions["key"] == "resource_locked" {
			return true
		}
		switch code := e.Extensions["code"].(type) {
		case float64:
			if retryableStatus(int(code)) {
				return true
			}
		case string:
			return true
		}
	}
	return false
}

// idemRecorder passes the answer through and keeps a copy of its body, up
// to idempotencyMaxResponse bytes.
type idemRecorder struct {
	gin.ResponseWriter
	buf      bytes.Buffer
	overflow bool
}

func (w *idemRecorder) keep(n int) bool {
	if w.overflow || w.buf.Len()+n > idempotencyMaxResponse {
		w.overflow = true
		w.buf = bytes.Buffer{}
		return false
	}
	return true
}

// Write implements http.ResponseWriter.
func (w *idemRecorder) Write(b []byte) (int, error) {
	if w.keep(len(b)) {
		w.buf.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// WriteString implements io.StringWriter.
func (w *idemRecorder) WriteString(s string) (int, error) {
	if w.keep(len(s)) {
		w.buf.WriteString(s)
	}
	return w.ResponseWriter.WriteString(s)
}

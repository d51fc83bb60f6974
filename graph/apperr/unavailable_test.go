package apperr

import (
	"context"
	"database/sql/driver"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent/entdb"
)

// TestUnavailableErrors: a database that cannot serve the request now is a
// 503 service_unavailable (a lock wait beyond the lock timeout a 409
// resource_locked), with Retry-After and without the database's text.
func TestUnavailableErrors(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "unix", Err: fmt.Errorf("connect: no such file or directory")}
	for name, tc := range map[string]struct {
		err  error
		code int
	}{
		"refused":            {dial, http.StatusServiceUnavailable},
		"bad conn":           {driver.ErrBadConn, http.StatusServiceUnavailable},
		"admin shutdown":     {&pq.Error{Code: "57P01", Message: "terminating connection due to administrator command"}, http.StatusServiceUnavailable},
		"starting up":        {&pq.Error{Code: "57P03", Message: "the database system is starting up"}, http.StatusServiceUnavailable},
		"too many conns":     {&pq.Error{Code: "53300", Message: "sorry, too many clients already"}, http.StatusServiceUnavailable},
		"connection failure": {&pq.Error{Code: "08006", Message: "connection failure"}, http.StatusServiceUnavailable},
		"statement timeout":  {&pq.Error{Code: "57014", Message: "canceling statement due to statement timeout"}, http.StatusServiceUnavailable},
		"deadline":           {context.DeadlineExceeded, http.StatusServiceUnavailable},
		"sqlite writer busy": {entdb.ErrDatabaseBusy, http.StatusServiceUnavailable},
		"lock timeout":       {&pq.Error{Code: "55P03", Message: "canceling statement due to lock timeout"}, http.StatusConflict},
		"deadlock":           {&pq.Error{Code: "40P01", Message: "deadlock detected"}, http.StatusConflict},
		"serialization":      {&pq.Error{Code: "40001", Message: "could not serialize access due to concurrent update"}, http.StatusConflict},
	} {
		e, ok := From(fmt.Errorf("redeeming: %w", tc.err))
		if !ok || e.Code != tc.code || e.RetryAfter <= 0 {
			t.Errorf("%s: %+v (mapped %v), want %d with Retry-After", name, e, ok, tc.code)
			continue
		}
		if strings.Contains(e.Details, "canceling") || strings.Contains(e.Details, "unix") || strings.Contains(e.Details, "clients") ||
			strings.Contains(e.Details, "deadlock") || strings.Contains(e.Details, "serialize") {
			t.Errorf("%s: details carry the database's text: %q", name, e.Details)
		}
	}
	if e, ok := From(&pq.Error{Code: "23505"}); ok && e.Code >= 500 {
		t.Errorf("unique violation mapped to %+v", e)
	}
}

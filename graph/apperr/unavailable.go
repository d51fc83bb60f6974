package apperr

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"net/http"

	"github.com/lib/pq"
	"modernc.org/sqlite"

	"github.com/promoengine/promoengine/ent/entdb"
)

// Retry-After values, in seconds (docs/deploy.md, "Failing well").
const (
	// UnavailableRetryAfter is sent with 503 service_unavailable: the
	// database is unreachable, stopped, out of connections or too slow.
	UnavailableRetryAfter = 2
	// LockedRetryAfter is sent with 409 resource_locked: another request
	// held the row longer than the lock timeout.
	LockedRetryAfter = 1
)

// Unavailable is the error of a request the database could not serve now:
// 503 service_unavailable with Retry-After. details never carries the
// database's or the driver's text.
func Unavailable(details string) *Error {
	return &Error{Code: http.StatusServiceUnavailable, Key: "service_unavailable", Message: "Service unavailable",
		Details: details, RetryAfter: UnavailableRetryAfter}
}

// Locked is the error of a request that waited the lock timeout for a row
// another request holds: 409 resource_locked with Retry-After. Nothing was
// written; the same request may be sent again.
func Locked() *Error {
	return &Error{Code: http.StatusConflict, Key: "resource_locked", Message: "Resource locked",
		Details: "The resource is being changed by another request; try again", RetryAfter: LockedRetryAfter}
}

// Details of Unavailable for each cause.
const (
	detailsUnreachable = "The database cannot be reached; try again"
	detailsTooSlow     = "The database did not answer in time; try again"
	detailsBusy        = "The database is busy; try again"
)

// unavailable maps the errors of a database that cannot serve the request
// now — a refused or broken connection, a server shutting down, starting
// or out of connections, a statement or request deadline, a lock wait
// beyond the lock timeout, a deadlock, SQLite's writer busy beyond its
// wait — to 503 service_unavailable or 409 resource_locked.
func unavailable(err error) (*Error, bool) {
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		switch {
		case pqErr.Code == "55P03", // lock_not_available (lock_timeout, NOWAIT)
			// deadlock or serialization failure a path did not run again
			// (the locking paths do, store.WithinTxRetried): rolled back,
			// nothing written, the same request may be sent again.
			pqErr.Code == "40P01", pqErr.Code == "40001":
			return Locked(), true
		case pqErr.Code == "57014": // query_canceled: statement_timeout or the request's deadline
			return Unavailable(detailsTooSlow), true
		case pqErr.Code.Class() == "08", // connection_exception
			pqErr.Code == "57P01", pqErr.Code == "57P02", pqErr.Code == "57P03", // shutdown, crash, cannot connect now
			pqErr.Code.Class() == "53": // insufficient resources: too many connections, out of memory, disk full
			return Unavailable(detailsUnreachable), true
		}
		return nil, false
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		switch liteErr.Code() & 0xff {
		case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED: busy_timeout spent
			return Unavailable(detailsBusy), true
		}
		return nil, false
	}
	var netErr net.Error
	switch {
	case errors.Is(err, entdb.ErrDatabaseBusy):
		return Unavailable(detailsBusy), true
	case errors.Is(err, context.DeadlineExceeded):
		return Unavailable(detailsTooSlow), true
	case errors.Is(err, driver.ErrBadConn), errors.As(err, &netErr):
		return Unavailable(detailsUnreachable), true
	}
	return nil, false
}

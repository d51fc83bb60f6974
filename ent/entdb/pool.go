package entdb

import (
	"database/sql"
	"strconv"
	"strings"
	"time"
)

// Pool defaults for PostgreSQL (PROMO_DB_* settings, docs/deploy.md).
const (
	// DefaultMaxOpen bounds the connections one process opens.
	DefaultMaxOpen = 32
	// DefaultMaxIdle is how many of them are kept open while idle.
	DefaultMaxIdle = 32
	// DefaultConnMaxIdleTime closes a connection idle that long, so a burst
	// does not keep its connections for ever.
	DefaultConnMaxIdleTime = time.Minute
	// DefaultConnMaxLifetime replaces a connection after that long (fail
	// over, load balancers in front of the database, memory of a backend).
	DefaultConnMaxLifetime = 30 * time.Minute
	// DefaultStatementTimeout is PostgreSQL's statement_timeout on the
	// request pool: no statement of a request runs longer.
	DefaultStatementTimeout = 5 * time.Second
	// DefaultLockTimeout is PostgreSQL's lock_timeout on the request pool:
	// a statement waits this long at most for a row or table lock, then
	// fails with SQLSTATE 55P03 (answered 409 resource_locked).
	DefaultLockTimeout = 2 * time.Second
	// DefaultJobsMaxOpen bounds the background pool (Options.JobsMaxOpen).
	DefaultJobsMaxOpen = 4
)

// frozenGrace is how much longer than the statement timeout a read from
// PostgreSQL may block before the server counts as frozen (see
// deadlineDialer): the server itself cancels a statement at the timeout,
// so silence beyond it means the server or the network stopped.
const frozenGrace = 2 * time.Second

// Options size the connection pools and bound database work. The zero
// value of a field is its default; on SQLite only the pool sizes apply and
// their zero values keep the embedded database's defaults.
type Options struct {
	// MaxOpen bounds the open connections of the request pool
	// (PROMO_DB_MAX_OPEN); negative: no bound.
	MaxOpen int
	// MaxIdle is how many idle connections are kept (PROMO_DB_MAX_IDLE);
	// negative: none.
	MaxIdle int
	// ConnMaxIdleTime closes connections idle that long
	// (PROMO_DB_CONN_MAX_IDLE_TIME); negative: never.
	ConnMaxIdleTime time.Duration
	// ConnMaxLifetime replaces connections that old
	// (PROMO_DB_CONN_MAX_LIFETIME); negative: never.
	ConnMaxLifetime time.Duration
	// StatementTimeout is PostgreSQL's statement_timeout on the request
	// pool (PROMO_DB_STATEMENT_TIMEOUT); negative: none. A read that stays
	// silent frozenGrace longer marks the connection broken (a frozen
	// server or network), so no request hangs on it.
	StatementTimeout time.Duration
	// LockTimeout is PostgreSQL's lock_timeout on the request pool
	// (PROMO_DB_LOCK_TIMEOUT); negative: none.
	LockTimeout time.Duration
	// JobsMaxOpen bounds the background pool (DB.Jobs), which has neither
	// timeout: background jobs (code generation, exports, webhook
	// delivery) run long statements by design. 0: DefaultJobsMaxOpen.
	JobsMaxOpen int
	// Trace gives every statement run inside a recorded OpenTelemetry span
	// a child span (tracing.go). Off: no tracing code on the statement path.
	Trace bool
}

// or returns v, def when v is zero, and 0 when v is negative (off).
func or[T int | time.Duration](v, def T) T {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return def
	}
	return v
}

// configurePool applies the pool settings of o to db (PostgreSQL defaults).
func (o Options) configurePool(db *sql.DB) {
	db.SetMaxOpenConns(or(o.MaxOpen, DefaultMaxOpen))
	db.SetMaxIdleConns(or(o.MaxIdle, DefaultMaxIdle))
	db.SetConnMaxIdleTime(or(o.ConnMaxIdleTime, DefaultConnMaxIdleTime))
	db.SetConnMaxLifetime(or(o.ConnMaxLifetime, DefaultConnMaxLifetime))
}

// configureSQLitePool applies the settings that were set explicitly; the
// rest keep the embedded database's defaults (no bound on open
// connections, 32 idle ones kept with their prepared statements).
func (o Options) configureSQLitePool(db *sql.DB) {
	db.SetMaxIdleConns(or(o.MaxIdle, 32))
	if o.MaxOpen != 0 {
		db.SetMaxOpenConns(or(o.MaxOpen, 0))
	}
	if o.ConnMaxIdleTime != 0 {
		db.SetConnMaxIdleTime(or(o.ConnMaxIdleTime, 0))
	}
	if o.ConnMaxLifetime != 0 {
		db.SetConnMaxLifetime(or(o.ConnMaxLifetime, 0))
	}
}

// statementTimeout and lockTimeout resolve the timeouts (0: none).
func (o Options) statementTimeout() time.Duration {
	return or(o.StatementTimeout, DefaultStatementTimeout)
}

func (o Options) lockTimeout() time.Duration { return or(o.LockTimeout, DefaultLockTimeout) }

// withTimeouts adds the request pool's statement_timeout and lock_timeout
// to a PostgreSQL URL as run-time parameters of every connection's start
// (lib/pq sends parameters it does not know to the server), unless the URL
// sets them itself.
func (o Options) withTimeouts(url string) string {
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"statement_timeout", o.statementTimeout()}, {"lock_timeout", o.lockTimeout()}} {
		if p.d <= 0 || strings.Contains(url, p.name+"=") {
			continue
		}
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		url += sep + p.name + "=" + strconv.FormatInt(p.d.Milliseconds(), 10)
	}
	return url
}

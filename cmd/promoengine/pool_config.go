package main

import (
	"flag"
	"time"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/rest"
)

// poolConfig holds serve's settings for the database pool and the bounds
// on database work (docs/deploy.md, "Failing well"). A value of 0 turns a
// bound off.
type poolConfig struct {
	maxOpen, maxIdle                          int
	connMaxIdleTime, connMaxLifetime          time.Duration
	statementTimeout, lockTimeout, reqTimeout time.Duration
}

// bind registers the flags, defaulting to the environment; an environment
// value that does not parse is an error naming the variable.
func (p *poolConfig) bind(fs *flag.FlagSet, getenv func(string) string) error {
	ints := []struct {
		dst         *int
		flag, env   string
		def         int
		description string
	}{
		{&p.maxOpen, "db-max-open", "PROMO_DB_MAX_OPEN", entdb.DefaultMaxOpen,
			"PostgreSQL connections this process opens at most for requests; background jobs have a small pool of their own (env PROMO_DB_MAX_OPEN; 0: no limit)"},
		{&p.maxIdle, "db-max-idle", "PROMO_DB_MAX_IDLE", entdb.DefaultMaxIdle,
			"idle database connections kept open for the next requests (env PROMO_DB_MAX_IDLE; 0: none)"},
	}
	for _, s := range ints {
		def, err := envInt(getenv, s.env, s.def)
		if err != nil {
			return err
		}
		fs.IntVar(s.dst, s.flag, def, s.description)
	}
	durations := []struct {
		dst         *time.Duration
		flag, env   string
		def         time.Duration
		description string
	}{
		{&p.connMaxIdleTime, "db-conn-max-idle-time", "PROMO_DB_CONN_MAX_IDLE_TIME", entdb.DefaultConnMaxIdleTime,
			"close a database connection idle this long, so a burst does not keep its connections (env PROMO_DB_CONN_MAX_IDLE_TIME; 0: never)"},
		{&p.connMaxLifetime, "db-conn-max-lifetime", "PROMO_DB_CONN_MAX_LIFETIME", entdb.DefaultConnMaxLifetime,
			"replace a database connection this old (env PROMO_DB_CONN_MAX_LIFETIME; 0: never)"},
		{&p.statementTimeout, "db-statement-timeout", "PROMO_DB_STATEMENT_TIMEOUT", entdb.DefaultStatementTimeout,
			"PostgreSQL statement_timeout of request work; migrations and background jobs are exempt. A database silent this long plus 2s counts as frozen and the request answers 503 (env PROMO_DB_STATEMENT_TIMEOUT; 0: none)"},
		{&p.lockTimeout, "db-lock-timeout", "PROMO_DB_LOCK_TIMEOUT", entdb.DefaultLockTimeout,
			"PostgreSQL lock_timeout of request work: a request waiting longer for a row another holds answers 409 resource_locked with Retry-After (env PROMO_DB_LOCK_TIMEOUT; 0: none)"},
		{&p.reqTimeout, "request-timeout", "PROMO_REQUEST_TIMEOUT", rest.DefaultRequestTimeout,
			"time one request may take, database work included; beyond it the request answers 503 service_unavailable with Retry-After. Export downloads are exempt (env PROMO_REQUEST_TIMEOUT; 0: none)"},
	}
	for _, s := range durations {
		def, err := envDuration(getenv, s.env, s.def)
		if err != nil {
			return err
		}
		fs.DurationVar(s.dst, s.flag, def, s.description)
	}
	return nil
}

// off maps a setting's 0 (off) to the negative value the options take
// for off, where their zero value means the default.
func off[T int | time.Duration](v T) T {
	if v <= 0 {
		return -1
	}
	return v
}

// options returns the entdb options of the settings; background jobs get
// a pool of workers+2 connections (a job's transaction, its lease renewal
// and webhook delivery at once).
func (p *poolConfig) options(workers int) entdb.Options {
	return entdb.Options{
		MaxOpen: off(p.maxOpen), MaxIdle: off(p.maxIdle),
		ConnMaxIdleTime: off(p.connMaxIdleTime), ConnMaxLifetime: off(p.connMaxLifetime),
		StatementTimeout: off(p.statementTimeout), LockTimeout: off(p.lockTimeout),
		JobsMaxOpen: max(workers+2, entdb.DefaultJobsMaxOpen),
	}
}

// requestTimeout is rest.Options.RequestTimeout of the setting.
func (p *poolConfig) requestTimeout() time.Duration { return off(p.reqTimeout) }

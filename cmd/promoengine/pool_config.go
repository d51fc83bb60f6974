package main

import (
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

// settings declares the pool and timeout settings (the table of
// settings.go).
func (p *poolConfig) settings() []setting {
	return []setting{
		durationSetting(&p.reqTimeout, "PROMO_REQUEST_TIMEOUT", "request-timeout", rest.DefaultRequestTimeout,
			"time one request may take, database work included; beyond it the request answers 503 service_unavailable with Retry-After. Export downloads are exempt; 0: none"),
		intSetting(&p.maxOpen, "PROMO_DB_MAX_OPEN", "db-max-open", entdb.DefaultMaxOpen,
			"PostgreSQL connections this process opens at most for requests; background jobs have a small pool of their own; 0: no limit"),
		intSetting(&p.maxIdle, "PROMO_DB_MAX_IDLE", "db-max-idle", entdb.DefaultMaxIdle,
			"idle database connections kept open for the next requests; 0: none"),
		durationSetting(&p.connMaxIdleTime, "PROMO_DB_CONN_MAX_IDLE_TIME", "db-conn-max-idle-time", entdb.DefaultConnMaxIdleTime,
			"close a database connection idle this long, so a burst does not keep its connections; 0: never"),
		durationSetting(&p.connMaxLifetime, "PROMO_DB_CONN_MAX_LIFETIME", "db-conn-max-lifetime", entdb.DefaultConnMaxLifetime,
			"replace a database connection this old; 0: never"),
		durationSetting(&p.statementTimeout, "PROMO_DB_STATEMENT_TIMEOUT", "db-statement-timeout", entdb.DefaultStatementTimeout,
			"PostgreSQL statement_timeout of request work; migrations and background jobs are exempt. A database silent this long plus 2s counts as frozen and the request answers 503; 0: none"),
		durationSetting(&p.lockTimeout, "PROMO_DB_LOCK_TIMEOUT", "db-lock-timeout", entdb.DefaultLockTimeout,
			"PostgreSQL lock_timeout of request work: a request waiting longer for a row another holds answers 409 resource_locked with Retry-After; 0: none"),
	}
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

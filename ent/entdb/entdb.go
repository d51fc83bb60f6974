// Package entdb opens promoengine's database: embedded SQLite (the
// zero-setup default) or PostgreSQL through lib/pq, and migrates its schema.
// It is hand-written; the rest of package ent's tree is generated.
package entdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/lib/pq"  // PostgreSQL driver (and its connector)
	"modernc.org/sqlite" // pure-Go SQLite driver (and its connector)

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/migrate"
	_ "github.com/promoengine/promoengine/ent/runtime" // schema hooks, interceptors and defaults
)

// DefaultSQLitePath is where the database lives when no URL is configured.
const DefaultSQLitePath = "./promoengine.db"

// sqlitePragmas make SQLite safe for a pooled, concurrent server: foreign
// keys on, WAL for concurrent readers, a busy timeout instead of immediate
// "database is locked", and write-intent transactions (BEGIN IMMEDIATE) so
// two writers queue instead of deadlocking on lock upgrade.
const sqlitePragmas = "_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"

// DB is an open database with its ent client.
type DB struct {
	// Client is the ent client over the database (the request pool).
	Client *ent.Client
	// SQL is the underlying pool.
	SQL *sql.DB
	// Dialect is dialect.SQLite or dialect.Postgres.
	Dialect string
	// Jobs is the ent client background jobs use. On PostgreSQL it is a
	// second, small pool without the request pool's statement and lock
	// timeouts (code generation and exports run long statements by
	// design); on SQLite it is Client.
	Jobs *ent.Client
	// jobsSQL is the pool under Jobs when it is a second one.
	jobsSQL *sql.DB
}

// Open connects to url with the default Options (see OpenWith).
func Open(ctx context.Context, url string) (*DB, error) {
	return OpenWith(ctx, url, Options{})
}

// OpenWith connects to url: empty → SQLite at DefaultSQLitePath;
// postgres:// or postgresql:// → PostgreSQL; sqlite://PATH, file:PATH or a
// plain path → SQLite. opts size the pools and set PostgreSQL's timeouts.
// It checks the connection before returning.
func OpenWith(ctx context.Context, url string, opts Options) (*DB, error) {
	if !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
		return openSQLite(ctx, url, opts)
	}
	dsn := withBinaryParameters(url)
	db, err := openPostgres(ctx, opts.withTimeouts(dsn), opts.statementTimeout(), opts.Trace)
	if err != nil {
		return nil, err
	}
	opts.configurePool(db)
	jobsSQL, err := openPostgres(ctx, dsn, 0, opts.Trace)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	jobsSQL.SetMaxOpenConns(or(opts.JobsMaxOpen, DefaultJobsMaxOpen))
	jobsSQL.SetMaxIdleConns(or(opts.JobsMaxOpen, DefaultJobsMaxOpen))
	jobsSQL.SetConnMaxIdleTime(or(opts.ConnMaxIdleTime, DefaultConnMaxIdleTime))
	jobsSQL.SetConnMaxLifetime(or(opts.ConnMaxLifetime, DefaultConnMaxLifetime))
	base := textArgs{entsql.OpenDB(dialect.Postgres, db)}
	client := ent.NewClient(ent.Driver(base))
	batchClients.Store(client, ent.NewClient(ent.Driver(batchDriver{base}))) // write_batch.go
	jobs := ent.NewClient(ent.Driver(textArgs{entsql.OpenDB(dialect.Postgres, jobsSQL)}))
	for _, c := range []*ent.Client{client, BatchClient(client), jobs} {
		c.Use(qualificationVersionHook(dialect.Postgres)) // qualification_version.go
	}
	return &DB{Client: client, SQL: db, Dialect: dialect.Postgres, Jobs: jobs, jobsSQL: jobsSQL}, nil
}

// openPostgres opens and pings a PostgreSQL pool. A positive
// statementTimeout bounds every read and write on its connections (see
// deadlineDialer); trace adds statement spans (tracing.go).
func openPostgres(ctx context.Context, dsn string, statementTimeout time.Duration, trace bool) (*sql.DB, error) {
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s database: %w", dialect.Postgres, err)
	}
	if statementTimeout > 0 {
		connector.Dialer(deadlineDialer{bound: statementTimeout + frozenGrace})
	}
	db := sql.OpenDB(cachingConnector{base: connector, trace: trace})
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connecting to %s database: %w", dialect.Postgres, err)
	}
	return db, nil
}

// openSQLite opens the embedded database at url.
func openSQLite(ctx context.Context, url string, opts Options) (*DB, error) {
	_, dsn, dia := sqliteDSN(url)
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s database: %w", dia, err)
	}
	// Each connection keeps its statements prepared (stmtcache.go), so
	// idle connections are kept too rather than closed beyond two.
	db := sql.OpenDB(cachingConnector{base: connector, local: true, trace: opts.Trace})
	opts.configureSQLitePool(db)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connecting to %s database: %w", dia, err)
	}
	client := ent.NewClient(ent.Driver(newSQLiteWriters(entsql.OpenDB(dia, db))))
	client.Use(qualificationVersionHook(dia)) // qualification_version.go
	return &DB{Client: client, SQL: db, Dialect: dia, Jobs: client}, nil
}

// withBinaryParameters turns on lib/pq's one-round-trip statement mode
// (see textArgs) unless the URL sets binary_parameters itself.
func withBinaryParameters(url string) string {
	if strings.Contains(url, "binary_parameters=") {
		return url
	}
	if strings.Contains(url, "?") {
		return url + "&binary_parameters=yes"
	}
	return url + "?binary_parameters=yes"
}

func sqliteDSN(url string) (driver, dsn, dia string) {
	path := url
	switch {
	case url == "":
		path = DefaultSQLitePath
	case strings.HasPrefix(url, "sqlite://"):
		path = strings.TrimPrefix(url, "sqlite://")
	case strings.HasPrefix(url, "sqlite:"):
		path = strings.TrimPrefix(url, "sqlite:")
	}
	if !strings.HasPrefix(path, "file:") {
		path = "file:" + path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return "sqlite", path + sep + sqlitePragmas, dialect.SQLite
}

// Close closes the clients and their pools.
func (d *DB) Close() error {
	batchClients.Delete(d.Client)
	if d.jobsSQL != nil {
		_ = d.Jobs.Close()
	}
	return d.Client.Close()
}

// unbounded returns d over its pool without statement and lock timeouts,
// for the work that may wait or run long by design: migrations (a DDL
// statement on a large table, the advisory lock another process holds
// while it migrates) and background jobs. On SQLite it is d.
func (d *DB) unbounded() *DB {
	if d.jobsSQL == nil {
		return d
	}
	// Without jobsSQL of its own it is its own unbounded view (and Close
	// leaves the pools to d).
	return &DB{Client: d.Jobs, SQL: d.jobsSQL, Dialect: d.Dialect, Jobs: d.Jobs}
}

// migrationLockKey is the PostgreSQL advisory lock that serialises schema
// migration when several server processes start at once.
const migrationLockKey = 7_267_001

// Migrate applies the pending versioned migrations (see Up); databases
// made by the automatic migration of earlier releases are adopted.
func (d *DB) Migrate(ctx context.Context) error {
	// Up runs on the pool without timeouts (see unbounded).
	_, err := d.Up(ctx)
	return err
}

// AutoMigrate is ent's automatic migration, the way releases before
// versioned migrations made their databases: it creates what the schema
// declares and the database lacks, and drops undeclared indexes. Up uses it
// once to adopt such a database; tests use it to build one.
func (d *DB) AutoMigrate(ctx context.Context) error {
	if u := d.unbounded(); u != d {
		return u.AutoMigrate(ctx)
	}
	return d.WithAdvisoryLock(ctx, migrationLockKey, func() error { return d.autoMigrate(ctx) })
}

// autoMigrate is ent's automatic migration: inspect the database, then
// create what the schema declares and it lacks.
func (d *DB) autoMigrate(ctx context.Context) error {
	if err := d.renameDuplicateProjects(ctx); err != nil {
		return err
	}
	if err := d.Client.Schema.Create(ctx, migrate.WithDropIndex(true)); err != nil {
		return fmt.Errorf("migrating schema: %w", err)
	}
	return nil
}

// renameDuplicateProjects prepares a database made before project names
// were unique for that index: every project but the oldest-id one of a
// shared name gets its id appended, " (proj_…)", so the migration can
// create the index instead of failing the start. New databases (no
// projects table yet) and databases without duplicates are left alone.
func (d *DB) renameDuplicateProjects(ctx context.Context) error {
	exists, err := d.tableExists(ctx, d.SQL, "projects")
	if err != nil || !exists {
		return err
	}
	// 180 characters of the name + " (" + the 13-character id + ")" stay
	// within the column's 200.
	_, err = d.SQL.ExecContext(ctx, `UPDATE projects SET name = substr(name, 1, 180) || ' (' || id || ')'
		WHERE EXISTS (SELECT 1 FROM projects older WHERE older.name = projects.name AND older.id < projects.id)`)
	if err != nil {
		return fmt.Errorf("migrating schema: renaming projects that share a name: %w", err)
	}
	return nil
}

// WithAdvisoryLock runs fn while holding a PostgreSQL session advisory lock
// on key (on SQLite, which has one writer, it just runs fn).
//
// The lock is waited for on the pool without timeouts (see unbounded): a
// process that starts while another migrates waits for it to finish.
func (d *DB) WithAdvisoryLock(ctx context.Context, key int64, fn func() error) error {
	if d.Dialect != dialect.Postgres {
		return fn()
	}
	conn, err := d.unbounded().SQL.Conn(ctx)
	if err != nil {
		return fmt.Errorf("advisory lock: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return fmt.Errorf("advisory lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key)
	}()
	return fn()
}

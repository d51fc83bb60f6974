// Package entdb opens promoengine's database: embedded SQLite (the
// zero-setup default) or PostgreSQL through lib/pq, and migrates its schema.
// It is hand-written; the rest of package ent's tree is generated.
package entdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

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
	// Client is the ent client over the database.
	Client *ent.Client
	// SQL is the underlying pool.
	SQL *sql.DB
	// Dialect is dialect.SQLite or dialect.Postgres.
	Dialect string
}

// Open connects to url: empty → SQLite at DefaultSQLitePath; postgres:// or
// postgresql:// → PostgreSQL; sqlite://PATH, file:PATH or a plain path →
// SQLite. It checks the connection before returning.
func Open(ctx context.Context, url string) (*DB, error) {
	_, dsn, dia := sqliteDSN(url)
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		dsn, dia = withBinaryParameters(url), dialect.Postgres
	}
	var db *sql.DB
	if dia == dialect.Postgres {
		connector, err := pq.NewConnector(dsn)
		if err != nil {
			return nil, fmt.Errorf("opening %s database: %w", dia, err)
		}
		db = sql.OpenDB(cachingConnector{base: connector})
	} else {
		connector, err := sqlite.NewConnector(dsn)
		if err != nil {
			return nil, fmt.Errorf("opening %s database: %w", dia, err)
		}
		// Each connection keeps its statements prepared (stmtcache.go), so
		// idle connections are kept too rather than closed beyond two.
		db = sql.OpenDB(cachingConnector{base: connector, local: true})
		db.SetMaxIdleConns(32)
	}
	if dia == dialect.Postgres {
		db.SetMaxOpenConns(32)
		db.SetMaxIdleConns(32)
	}
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connecting to %s database: %w", dia, err)
	}
	if dia != dialect.Postgres {
		client := ent.NewClient(ent.Driver(newSQLiteWriters(entsql.OpenDB(dia, db))))
		return &DB{Client: client, SQL: db, Dialect: dia}, nil
	}
	base := textArgs{entsql.OpenDB(dia, db)}
	client := ent.NewClient(ent.Driver(base))
	batchClients.Store(client, ent.NewClient(ent.Driver(batchDriver{base}))) // write_batch.go
	return &DB{Client: client, SQL: db, Dialect: dia}, nil
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

// Close closes the client and its pool.
func (d *DB) Close() error {
	batchClients.Delete(d.Client)
	return d.Client.Close()
}

// migrationLockKey is the PostgreSQL advisory lock that serialises schema
// migration when several server processes start at once.
const migrationLockKey = 7_267_001

// Migrate applies the pending versioned migrations (see Up); databases
// made by the automatic migration of earlier releases are adopted.
func (d *DB) Migrate(ctx context.Context) error {
	_, err := d.Up(ctx)
	return err
}

// AutoMigrate is ent's automatic migration, the way releases before
// versioned migrations made their databases: it creates what the schema
// declares and the database lacks, and drops undeclared indexes. Up uses it
// once to adopt such a database; tests use it to build one.
func (d *DB) AutoMigrate(ctx context.Context) error {
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
func (d *DB) WithAdvisoryLock(ctx context.Context, key int64, fn func() error) error {
	if d.Dialect != dialect.Postgres {
		return fn()
	}
	conn, err := d.SQL.Conn(ctx)
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

package entdbtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/migrate/migrations"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// Migrating a database runs every migration file (some forty tables and
// their indexes): about a second per test under the race detector, most of
// the cost of a short test. MigratedURL migrates once and copies:
//   - SQLite: one database per test process is migrated and its file kept
//     in memory; each test gets a copy of those bytes.
//   - PostgreSQL: a template database named after the migration files'
//     hash (templatePrefix + hash) is migrated once per server and kept;
//     each test's database is CREATE DATABASE … TEMPLATE it. A new schema
//     has new files, so a new name: a template never goes stale. The
//     template is left on the server (one per schema version).
// Migrating a database from empty is covered by ent/entdb's own tests and
// by every server start (which still runs Migrate, finding nothing to do).

// templatePrefix names the template databases kept on a PostgreSQL server.
const templatePrefix = "tmpl_"

var sqliteTemplate struct {
	once  sync.Once
	image []byte
	err   error
}

var postgresTemplate struct {
	mu   sync.Mutex
	name string
}

// MigratedURL returns a database URL for one test, like URL, of a database
// already migrated to the current schema (a copy of a template: see above).
func MigratedURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		sqliteTemplate.once.Do(func() { sqliteTemplate.image, sqliteTemplate.err = migratedSQLiteImage() })
		if sqliteTemplate.err != nil {
			t.Fatalf("migrating the template database: %v", sqliteTemplate.err)
		}
		path := filepath.Join(t.TempDir(), "test.db")
		if err := os.WriteFile(path, sqliteTemplate.image, 0o600); err != nil {
			t.Fatalf("copying the template database: %v", err)
		}
		return "sqlite://" + path
	}
	tmpl, err := postgresTemplateName(base)
	if err != nil {
		t.Fatalf("migrating the template database: %v", err)
	}
	return createDatabase(t, base, "TEMPLATE "+tmpl)
}

// migratedSQLiteImage migrates a SQLite database in a temporary directory
// and returns the bytes of its file, its write-ahead log checkpointed in.
func migratedSQLiteImage() ([]byte, error) {
	dir, err := os.MkdirTemp("", "entdbtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	ctx := context.Background()
	db, err := entdb.Open(ctx, "sqlite://"+path)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	if _, err := db.SQL.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("checkpointing: %w", err)
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("template's write-ahead log still holds %d bytes after closing", fi.Size())
	}
	return os.ReadFile(path)
}

// postgresTemplateName returns the template database of the current
// migrations on the server at base, creating it when missing. Processes
// that race to create it each migrate a database of their own and rename
// it; the first rename wins and the others drop theirs.
func postgresTemplateName(base string) (string, error) {
	postgresTemplate.mu.Lock()
	defer postgresTemplate.mu.Unlock()
	if postgresTemplate.name != "" {
		return postgresTemplate.name, nil
	}
	sum, err := migrationsHash(dialect.Postgres)
	if err != nil {
		return "", err
	}
	name := templatePrefix + sum
	admin, err := sql.Open("postgres", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRow("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", fmt.Errorf("looking for %s: %w", name, err)
	}
	if !exists {
		if err := buildPostgresTemplate(admin, base, name); err != nil {
			return "", err
		}
	}
	postgresTemplate.name = name
	return name, nil
}

// buildPostgresTemplate migrates a new database and renames it to name,
// unless another process got there first.
func buildPostgresTemplate(admin *sql.DB, base, name string) error {
	building := "tmpb_" + pulid.Hex(8)
	if _, err := admin.Exec("CREATE DATABASE " + building); err != nil {
		return fmt.Errorf("creating %s: %w", building, err)
	}
	drop := func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + building + " WITH (FORCE)") }
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return err
	}
	u.Path = "/" + building
	ctx := context.Background()
	db, err := entdb.Open(ctx, u.String())
	if err != nil {
		drop()
		return err
	}
	err = db.Migrate(ctx)
	_ = db.Close()
	if err != nil {
		drop()
		return err
	}
	if _, err := admin.Exec("ALTER DATABASE " + building + " RENAME TO " + name); err != nil {
		drop()
		var pqErr *pq.Error
		if errors.As(err, &pqErr) && pqErr.Code == "42P04" { // duplicate_database: another process won
			return nil
		}
		return fmt.Errorf("renaming %s to %s: %w", building, name, err)
	}
	return nil
}

// migrationsHash is a short hash of a dialect's migration files (names and
// contents), naming the schema they build.
func migrationsHash(dia string) (string, error) {
	dir, err := migrations.Dir(dia)
	if err != nil {
		return "", err
	}
	files, err := dir.Files()
	if err != nil {
		return "", fmt.Errorf("reading migrations: %w", err)
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Name(), len(f.Bytes()))
		h.Write(f.Bytes())
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

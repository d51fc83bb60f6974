// Package entdbtest gives each test its own migrated database: a SQLite
// file in the test's temp dir by default, or — when PROMO_TEST_DATABASE_URL
// names a PostgreSQL server — a fresh database created on that server and
// dropped afterwards. The same suites thus run on both engines.
package entdbtest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// EnvURL is the variable that switches the suites to PostgreSQL, e.g.
// postgres://postgres@/postgres?host=/tmp/pg&sslmode=disable
const EnvURL = "PROMO_TEST_DATABASE_URL"

// URL returns a database URL for one test (creating the PostgreSQL
// database when EnvURL is set) without opening it.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		return "sqlite://" + filepath.Join(t.TempDir(), "test.db")
	}
	return createDatabase(t, base, "")
}

// createDatabase creates a database for one test on the PostgreSQL server
// at base (CREATE DATABASE name options), dropped at cleanup, and returns
// its URL.
func createDatabase(t testing.TB, base, options string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parsing %s: %v", EnvURL, err)
	}
	admin, err := sql.Open("postgres", base)
	if err != nil {
		t.Fatalf("opening PostgreSQL: %v", err)
	}
	name := "t_" + pulid.Hex(8)
	if _, err := admin.Exec("CREATE DATABASE " + name + " " + options); err != nil {
		_ = admin.Close()
		t.Fatalf("creating test database: %v", err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.Exec(fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			t.Logf("dropping test database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// Open returns a migrated database for one test (see MigratedURL), closed
// at cleanup.
func Open(t testing.TB) *entdb.DB {
	t.Helper()
	ctx := context.Background()
	db, err := entdb.Open(ctx, MigratedURL(t))
	if err != nil {
		t.Fatalf("opening test database: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrating test database: %v", err)
	}
	return db
}

// IsPostgres reports whether the suites run against PostgreSQL.
func IsPostgres() bool { return os.Getenv(EnvURL) != "" }

// Dialect is the ent dialect name of the suites' database.
func Dialect() string {
	if IsPostgres() {
		return "postgres"
	}
	return "sqlite3"
}

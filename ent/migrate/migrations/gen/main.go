// Command gen writes the next versioned migration for each dialect: it
// replays the migration directory on an empty dev database, compares the
// result with the ent schema and writes the difference as a new Atlas file.
// SQLite uses a temporary file; PostgreSQL needs PG_URL (a server on which
// it may create and drop a scratch database). Run it through
// `.ci/migration-diff NAME` from the repository root, which provides one.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	_ "github.com/lib/pq"

	"github.com/promoengine/promoengine/ent/entdb"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./ent/migrate/migrations/gen NAME   (with PG_URL set; see .ci/migration-diff)")
		fmt.Fprintln(os.Stderr, "       go run ./ent/migrate/migrations/gen -rehash   (after editing a file by hand: rewrite atlas.sum)")
		os.Exit(2)
	}
	run := run
	if os.Args[1] == "-rehash" {
		run = func(context.Context, string) error { return rehash() }
	}
	if err := run(context.Background(), os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "migration diff:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, name string) error {
	pgURL := os.Getenv("PG_URL")
	if pgURL == "" {
		return errors.New("PG_URL is not set: run .ci/migration-diff NAME")
	}
	tmp, err := os.MkdirTemp("", "promoengine-migrations-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := diff(ctx, dialect.SQLite, "sqlite://"+filepath.Join(tmp, "dev.db"), name); err != nil {
		return err
	}
	devURL, drop, err := scratchDatabase(pgURL)
	if err != nil {
		return err
	}
	defer drop()
	return diff(ctx, dialect.Postgres, devURL, name)
}

// rehash rewrites the atlas.sum of both directories, for a migration file
// edited by hand (e.g. a data step Atlas cannot plan).
func rehash() error {
	for _, sub := range []string{"sqlite", "postgres"} {
		dir, err := migrate.NewLocalDir(filepath.Join("ent", "migrate", "migrations", sub))
		if err != nil {
			return fmt.Errorf("%s: %w (run from the repository root)", sub, err)
		}
		files, err := dir.Files()
		if err != nil {
			return err
		}
		sum, err := migrate.NewHashFile(files)
		if err != nil {
			return err
		}
		if err := migrate.WriteSumFile(dir, sum); err != nil {
			return err
		}
	}
	return nil
}

// diff writes the next migration of one dialect into its directory.
func diff(ctx context.Context, dia, devURL, name string) error {
	sub := map[string]string{dialect.SQLite: "sqlite", dialect.Postgres: "postgres"}[dia]
	dir, err := migrate.NewLocalDir(filepath.Join("ent", "migrate", "migrations", sub))
	if err != nil {
		return fmt.Errorf("%s: %w (run from the repository root)", dia, err)
	}
	db, err := entdb.Open(ctx, devURL)
	if err != nil {
		return fmt.Errorf("%s: %w", dia, err)
	}
	defer db.Close()
	switch err := db.DiffMigrations(ctx, dir, name); {
	case errors.Is(err, migrate.ErrNoPlan):
		fmt.Printf("%s: the migrations already match the schema\n", dia)
	case err != nil:
		return fmt.Errorf("%s: %w", dia, err)
	default:
		fmt.Printf("%s: wrote a new migration to %s\n", dia, dir.Path())
	}
	return nil
}

// scratchDatabase creates an empty database on the server of base and
// returns its URL and a function dropping it.
func scratchDatabase(base string) (string, func(), error) {
	admin, err := sql.Open("postgres", base)
	if err != nil {
		return "", nil, err
	}
	const name = "promoengine_migration_dev"
	if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name); err != nil {
		_ = admin.Close()
		return "", nil, fmt.Errorf("dropping an old dev database: %w", err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		_ = admin.Close()
		return "", nil, fmt.Errorf("creating the dev database: %w", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		_ = admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		_ = admin.Close()
	}, nil
}

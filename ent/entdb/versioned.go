package entdb

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/migrate"
	atlaspg "ariga.io/atlas/sql/postgres"
	atlassqlite "ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent/migrate/migrations"
)

// Versioned migrations: the embedded Atlas files of ent/migrate/migrations,
// applied in order and recorded in RevisionsTable. A database made by the
// automatic migration of earlier releases (tables but no RevisionsTable) is
// adopted: brought to the current schema once more by the automatic
// migration, then marked as having applied every file.

// MigrationStatus says where a database stands against the migrations
// embedded in this binary.
type MigrationStatus struct {
	// Applied lists the versions applied (or covered by the baseline of an
	// adopted database), oldest first, then any Unknown ones.
	Applied []string
	// Pending lists the files still to apply, in order.
	Pending []string
	// Unversioned is true for a database made by automatic migration
	// (tables, no record of versions): `migrate up` adopts it.
	Unversioned bool
	// Unknown lists applied versions this binary has no file for (the
	// database was migrated by a newer release).
	Unknown []string
}

// Current reports whether the database needs nothing from this binary.
func (s MigrationStatus) Current() bool { return len(s.Pending) == 0 && !s.Unversioned }

// String summarises the status in one line for operators.
func (s MigrationStatus) String() string {
	switch {
	case s.Unversioned:
		return "unversioned database (made by automatic migration): `promoengine migrate up` adopts it"
	case len(s.Pending) > 0:
		return fmt.Sprintf("%d of %d migrations pending: %s", len(s.Pending), len(s.Pending)+len(s.Applied), strings.Join(s.Pending, ", "))
	case len(s.Unknown) > 0:
		return fmt.Sprintf("up to date; %d applied migrations are newer than this binary: %s", len(s.Unknown), strings.Join(s.Unknown, ", "))
	}
	return fmt.Sprintf("up to date (%d migrations applied)", len(s.Applied))
}

// ErrSchemaBehind is returned by CheckSchema when the database needs
// migrations this binary carries.
var ErrSchemaBehind = errors.New("database schema is behind this binary")

// CheckSchema returns an error wrapping ErrSchemaBehind, with the status
// and the way out, unless the database is current.
func (d *DB) CheckSchema(ctx context.Context) error {
	st, err := d.Status(ctx)
	if err != nil {
		return err
	}
	if st.Current() {
		return nil
	}
	return fmt.Errorf("%w: %s; run `promoengine migrate up` first (or start with PROMO_AUTO_MIGRATE=true)", ErrSchemaBehind, st)
}

// Status reads the database's migration state without changing anything.
func (d *DB) Status(ctx context.Context) (MigrationStatus, error) { return d.statusOn(ctx, d.SQL) }

// statusOn reads the migration state through q (the pool or a migration's
// transaction).
func (d *DB) statusOn(ctx context.Context, q execQuerier) (MigrationStatus, error) {
	var st MigrationStatus
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		return st, err
	}
	files, err := dir.Files()
	if err != nil {
		return st, fmt.Errorf("reading migrations: %w", err)
	}
	hasRevisions, err := d.tableExists(ctx, q, RevisionsTable)
	if err != nil {
		return st, err
	}
	if !hasRevisions {
		hasTables, err := d.tableExists(ctx, q, "projects")
		if err != nil {
			return st, err
		}
		if hasTables {
			st.Unversioned = true
			return st, nil
		}
		for _, f := range files {
			st.Pending = append(st.Pending, f.Name())
		}
		return st, nil
	}
	revs, err := (&revisions{db: q, dialect: d.Dialect}).ReadRevisions(ctx)
	if err != nil {
		return st, err
	}
	known := map[string]bool{}
	for _, f := range files {
		known[f.Version()] = true
	}
	applied := map[string]bool{}
	baseline := "" // an adopted database counts every file up to it as applied
	for _, r := range revs {
		if r.Type.Has(migrate.RevisionTypeBaseline) {
			baseline = max(baseline, r.Version)
			continue
		}
		if r.Applied != r.Total {
			continue // a partly applied file stays pending
		}
		applied[r.Version] = true
		if !known[r.Version] {
			st.Unknown = append(st.Unknown, r.Version)
		}
	}
	for _, f := range files {
		switch {
		case f.Version() <= baseline || applied[f.Version()]:
			st.Applied = append(st.Applied, f.Version())
		default:
			st.Pending = append(st.Pending, f.Name())
		}
	}
	st.Applied = append(st.Applied, st.Unknown...)
	return st, nil
}

// UpResult says what Up did.
type UpResult struct {
	// Applied lists the migration files run, in order.
	Applied []string
	// Adopted is true when an unversioned database was adopted.
	Adopted bool
}

// Up applies the pending migrations, all in one transaction, holding the
// migration lock so concurrent starts migrate one after the other. An
// unversioned database is adopted (see the package comment of this file).
func (d *DB) Up(ctx context.Context) (UpResult, error) { return d.UpN(ctx, 0) }

// UpN is Up applying at most n pending files (n ≤ 0: all of them).
//
// Migrations run on the pool without timeouts (see unbounded).
func (d *DB) UpN(ctx context.Context, n int) (UpResult, error) {
	if u := d.unbounded(); u != d {
		return u.UpN(ctx, n)
	}
	var res UpResult
	err := d.WithAdvisoryLock(ctx, migrationLockKey, func() error {
		adopt := false
		err := d.inMigrationTx(ctx, func(q execQuerier, drv migrate.Driver) error {
			// Read the state inside the transaction: on SQLite its write
			// lock is what serialises concurrent starts.
			st, err := d.statusOn(ctx, q)
			if err != nil || len(st.Pending) == 0 {
				adopt = st.Unversioned
				return err
			}
			res.Applied = st.Pending
			if n > 0 && n < len(res.Applied) {
				res.Applied = res.Applied[:n]
			}
			ex, err := d.executor(q, drv, migrate.WithAllowDirty(true))
			if err != nil {
				return err
			}
			if err := ex.ExecuteN(ctx, max(n, 0)); err != nil && !errors.Is(err, migrate.ErrNoPendingFiles) {
				return fmt.Errorf("applying migrations: %w", err)
			}
			if appliesJSONNumbers(res.Applied) {
				if _, err := d.repairJSONNumbers(ctx, q); err != nil {
					return fmt.Errorf("applying migrations: %w", err)
				}
			}
			return nil
		})
		if err != nil || !adopt {
			return err
		}
		res.Adopted = true
		return d.adopt(ctx)
	})
	if err != nil {
		return UpResult{}, err
	}
	return res, nil
}

// adopt brings an auto-migrated database to the current schema with the
// automatic migration and records every embedded file as applied.
func (d *DB) adopt(ctx context.Context) error {
	if err := d.autoMigrate(ctx); err != nil {
		return err
	}
	return d.inMigrationTx(ctx, func(q execQuerier, drv migrate.Driver) error {
		if st, err := d.statusOn(ctx, q); err != nil || !st.Unversioned {
			return err // adopted meanwhile
		}
		dir, err := migrations.Dir(d.Dialect)
		if err != nil {
			return err
		}
		files, err := dir.Files()
		if err != nil || len(files) == 0 {
			return fmt.Errorf("adopting the database: no migration files (%v)", err)
		}
		ex, err := d.executor(q, drv, migrate.WithBaselineVersion(files[len(files)-1].Version()))
		if err != nil {
			return err
		}
		if err := ex.ExecuteN(ctx, 0); err != nil && !errors.Is(err, migrate.ErrNoPendingFiles) {
			return fmt.Errorf("adopting the database: %w", err)
		}
		// The baseline covers the repair's marker file: its data step runs
		// here, as Up would have run it.
		if _, err := d.repairJSONNumbers(ctx, q); err != nil {
			return fmt.Errorf("adopting the database: %w", err)
		}
		return nil
	})
}

// executor runs the embedded files of the dialect on drv, recording
// revisions through q (both the migration's transaction).
func (d *DB) executor(q execQuerier, drv migrate.Driver, opts ...migrate.ExecutorOption) (*migrate.Executor, error) {
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		return nil, err
	}
	if err := createRevisionsTable(context.Background(), q); err != nil {
		return nil, err
	}
	opts = append([]migrate.ExecutorOption{migrate.WithOperatorVersion("promoengine")}, opts...)
	ex, err := migrate.NewExecutor(drv, dir, &revisions{db: q, dialect: d.Dialect}, opts...)
	if err != nil {
		return nil, fmt.Errorf("preparing migrations: %w", err)
	}
	return ex, nil
}

// inMigrationTx runs fn in one transaction on one connection with an Atlas
// driver over it. On SQLite foreign keys are off meanwhile (rebuilding a
// table must not cascade into its children) and checked before commit.
func (d *DB) inMigrationTx(ctx context.Context, fn func(execQuerier, migrate.Driver) error) (err error) {
	conn, err := d.SQL.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	defer conn.Close()
	if d.Dialect == dialect.SQLite {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = off"); err != nil {
			return fmt.Errorf("migrating: %w", err)
		}
		defer func() {
			if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = on"); ferr != nil && err == nil {
				err = fmt.Errorf("migrating: restoring foreign keys: %w", ferr)
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var drv migrate.Driver
	if d.Dialect == dialect.Postgres {
		drv, err = atlaspg.Open(tx)
	} else {
		drv, err = atlassqlite.Open(tx)
	}
	if err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	if err := fn(tx, drv); err != nil {
		return err
	}
	if d.Dialect == dialect.SQLite {
		if err := foreignKeyCheck(ctx, tx); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrating: commit: %w", err)
	}
	return nil
}

// foreignKeyCheck fails when a migration left a row pointing nowhere.
func foreignKeyCheck(ctx context.Context, q execQuerier) error {
	rows, err := q.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("migrating: foreign key check: %w", err)
	}
	defer rows.Close()
	if rows.Next() {
		return errors.New("migrating: the migration left rows that break a foreign key")
	}
	return rows.Err()
}

// tableExists reports whether the current schema has a table of that name.
func (d *DB) tableExists(ctx context.Context, q execQuerier, name string) (bool, error) {
	query := "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
	if d.Dialect == dialect.Postgres {
		query = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
	}
	rows, err := q.QueryContext(ctx, query, name)
	if err != nil {
		return false, fmt.Errorf("looking for table %s: %w", name, err)
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return false, fmt.Errorf("looking for table %s: %w", name, err)
		}
	}
	return n > 0, rows.Err()
}

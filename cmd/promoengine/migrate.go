package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/promoengine/promoengine/ent/entdb"
)

// migrateCmd runs `migrate [up|status|repair-numbers]`: `up` (the default)
// applies the pending versioned migrations (adopting a database made by
// automatic migration), `status` prints where the database stands and
// changes nothing (errMigrationsPending when it is not current), `repair-numbers` runs the repair of numbers beyond
// float64 in JSON columns again (after a rolling upgrade: docs/deploy.md).
func migrateCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	action := "up"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		action, args = args[0], args[1:]
	}
	if action == "down" {
		fmt.Fprintln(stderr, "promoengine: there is no migrate down: migrations are additive, so the previous binary runs on the migrated schema; a release that removes something says so and is rolled back from a backup (docs/deploy.md, \"Rolling back\")")
		return errUsage
	}
	if action != "up" && action != "status" && action != "repair-numbers" {
		fmt.Fprintf(stderr, "usage: promoengine migrate [up|status|repair-numbers] [--database-url URL]\n")
		return errUsage
	}
	fs := flag.NewFlagSet("migrate "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg dbConfig
	cfg.bind(fs, getenv)
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	db, err := entdb.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if action == "repair-numbers" {
		n, err := db.RepairJSONNumbers(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "repaired %d numbers beyond float64 in JSON columns\n", n)
		return nil
	}
	if action == "up" {
		res, err := db.Up(ctx)
		if err != nil {
			return err
		}
		if res.Adopted {
			fmt.Fprintln(stdout, "adopted a database made by automatic migration: every migration is recorded as applied")
		}
		for _, f := range res.Applied {
			fmt.Fprintln(stdout, "applied", f)
		}
	}
	st, err := db.Status(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, st)
	if action == "status" && !st.Current() {
		return errMigrationsPending
	}
	return nil
}

// errMigrationsPending is returned by `migrate status` when the database
// needs `migrate up` (pending files, or an unversioned database to adopt);
// the process exits with exitPending after the status line was printed.
var errMigrationsPending = errors.New("migrations pending")

// Command promoengine runs the promotion engine: `serve` (the default)
// starts the HTTP server; `project create` adds a project with its own
// application key. Both read the same database settings.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, errUsage) && !errors.Is(err, errMigrationsPending) {
			fmt.Fprintln(os.Stderr, "promoengine:", err)
		}
		os.Exit(exitCode(err))
	}
}

// errUsage is returned after usage has been printed for a bad command line.
var errUsage = errors.New("usage")

// Exit codes of the process: 0 success, exitFailure for any error,
// exitPending when `migrate status` found migrations to apply (so a deploy
// script can gate on it; docs/deploy.md).
const (
	exitFailure = 1
	exitPending = 3
)

// exitCode maps run's error to the process's exit code.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errMigrationsPending):
		return exitPending
	default:
		return exitFailure
	}
}

// run dispatches the subcommand in args.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	switch {
	case len(args) > 0 && (args[0] == "--version" || args[0] == "-version"):
		cmd, args = "version", args[1:]
	case len(args) > 0 && args[0] != "" && args[0][0] != '-':
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, getenv, stdout, stderr)
	case "project":
		if len(args) > 0 && args[0] == "features" {
			return runAdmin(ctx, "project features", featuresCommand, args[1:], getenv, stdout, stderr)
		}
		return projectCmd(ctx, args, getenv, stdout, stderr)
	case "key":
		return dispatch(ctx, "key", keyCommands, args, getenv, stdout, stderr)
	case "user":
		return dispatch(ctx, "user", userCommands, args, getenv, stdout, stderr)
	case "migrate":
		return migrateCmd(ctx, args, getenv, stdout, stderr)
	case "healthcheck":
		return healthcheckCmd(ctx, args, getenv, stdout, stderr)
	case "version":
		printVersion(stdout)
		return nil
	case "help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", cmd, usage)
		return errUsage
	}
}

const usage = `promoengine — promotion, voucher and loyalty engine (REST + GraphQL)

Usage:
  promoengine [serve] [flags]               run the HTTP server (default)
  promoengine project create --name NAME    create a project (all features) and print its application key as JSON
  promoengine project features --project P [--enable F,…] [--disable F,…]
                                            set the plan features of a project (branding, users_management)
  promoengine key create|list|block|unblock|regenerate|delete|allow-ips --project P [--app-id ID] …
                                            application key lifecycle (also: management API …/api-keys)
  promoengine user add --project P --email E --role ROLE [--login L] [--first-name F] [--last-name L] [--owner]
  promoengine user remove --project P --user ID_OR_LOGIN
                                            project users and their roles
  promoengine migrate [up|status|repair-numbers]
                                            apply the pending schema migrations (default), or show where the
                                            database stands (status exits 3 while migrations are pending, 0 when
                                            current); serve does "up" itself when PROMO_AUTO_MIGRATE is true;
                                            repair-numbers rewrites numbers beyond float64 stored in JSON columns;
                                            there is no "down": see docs/deploy.md, "Rolling back"
  promoengine healthcheck [--path /readyz|/healthz] [--addr ADDR]
                                            ask the local server (PROMO_ADDR) for its readiness; exits 0 on 200
                                            (the image's HEALTHCHECK: it has no shell or curl)
  promoengine version                       print the version, commit and date it was built from, and the Go
                                            version (also: --version)
  promoengine help                          show this help

Run "promoengine serve --help", "promoengine key create --help", … for flags.

Environment (each has a flag of the same meaning):
  PROMO_ADDR                        listen address (default ":8080")
  PROMO_DATABASE_URL                postgres://… for PostgreSQL; unset → embedded SQLite at ./promoengine.db
                                    (sqlite://PATH or file:PATH choose another SQLite file)
  PROMO_LOG_LEVEL                   debug, info, warn or error (default info)
  PROMO_AUTO_MIGRATE                apply pending schema migrations at start (default true on SQLite, false on
                                    PostgreSQL, where a database behind the binary is refused: run "migrate up")
  PROMO_PUBLIC_URL                  external base URL for absolute links (default: the request's host)
  PROMO_WORKERS                     background job workers per process (default 2; 0 disables)
  PROMO_DB_CONCURRENCY              publications and validations run on the database at once per process (default 4; 0 or negative: no limit)
  PROMO_PPROF_ADDR                  serve net/http/pprof on this separate address (default off)
  PROMO_METRICS_ADDR                serve Prometheus /metrics on this separate address instead of the main one
                                    (default: /metrics on PROMO_ADDR, without credentials — block it at the proxy)
  PROMO_SHUTDOWN_DELAY              on SIGTERM, answer /readyz 503 this long before closing the listener (default 0s)
  PROMO_TRUSTED_PROXIES             IPs/CIDRs of reverse proxies whose X-Forwarded-For is believed (default none)
  PROMO_BOOTSTRAP_APP_ID            on an empty database, the default project's application key id …
  PROMO_BOOTSTRAP_APP_TOKEN         … and token (generated when unset)
  PROMO_BOOTSTRAP_MANAGEMENT_ID     on an empty database, the management key id …
  PROMO_BOOTSTRAP_MANAGEMENT_TOKEN  … and token (generated when unset)
`

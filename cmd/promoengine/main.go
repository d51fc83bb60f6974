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
	"strings"
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
		fmt.Fprint(stdout, usageText())
		return nil
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", cmd, usageText())
		return errUsage
	}
}

// usageHead is the command list of `promoengine help`; usageText adds the
// environment list from the settings table.
const usageHead = `promoengine — promotion, voucher and loyalty engine (REST + GraphQL)

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

`

// usageText is the text of `promoengine help`: the commands, then every
// configuration variable (settings.go).
func usageText() string {
	var b strings.Builder
	b.WriteString(usageHead)
	writeEnvironment(&b, allSettings())
	return b.String()
}

package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// TestMigrateCommandAndTheStartCheck: with auto-migration off a command
// refuses an empty database and names the way out; `migrate status` lists
// the pending files and exits 3 (a deploy can gate on it), `migrate up`
// applies them, status then exits 0, and the same command then starts;
// `migrate down` points at the documented rollback path.
func TestMigrateCommandAndTheStartCheck(t *testing.T) {
	url := entdbtest.URL(t)
	ctx := context.Background()
	noAuto := env(map[string]string{"PROMO_AUTO_MIGRATE": "false"})
	cmd := func(args ...string) (string, error) {
		var out, errOut syncBuffer
		err := run(ctx, append(args, "--database-url", url), noAuto, &out, &errOut)
		return out.String() + errOut.String(), err
	}
	_, err := cmd("project", "create", "--name", "Shop")
	if !errors.Is(err, entdb.ErrSchemaBehind) || !strings.Contains(err.Error(), "promoengine migrate up") {
		t.Fatalf("project create on an unmigrated database = %v, want the schema-behind error naming migrate up", err)
	}
	out, err := cmd("migrate", "status")
	if !errors.Is(err, errMigrationsPending) || !strings.Contains(out, "migrations pending") || !strings.Contains(out, "_initial.sql") {
		t.Fatalf("migrate status = %q, %v; want the pending files and errMigrationsPending", out, err)
	}
	if code := exitCode(err); code != exitPending {
		t.Fatalf("migrate status with pending migrations exits %d, want %d", code, exitPending)
	}
	out, err = cmd("migrate", "up")
	if err != nil || !strings.Contains(out, "applied ") || !strings.Contains(out, "up to date") {
		t.Fatalf("migrate up = %q, %v", out, err)
	}
	if out, err = cmd("migrate", "status"); err != nil || !strings.HasPrefix(out, "up to date") || exitCode(err) != 0 {
		t.Fatalf("migrate status after up = %q, %v (exit %d)", out, err, exitCode(err))
	}
	if out, err = cmd("project", "create", "--name", "Shop"); err != nil || !strings.Contains(out, "proj_") {
		t.Fatalf("project create after migrate up = %q, %v", out, err)
	}
	if out, err = cmd("migrate", "repair-numbers"); err != nil || !strings.Contains(out, "repaired 0 numbers") {
		t.Errorf("migrate repair-numbers = %q, %v", out, err)
	}
	if out, err = cmd("migrate", "down"); !errors.Is(err, errUsage) || !strings.Contains(out, "Rolling back") {
		t.Errorf("migrate down = %q, %v; want a usage error pointing at the rollback path", out, err)
	}
	if _, err = cmd("migrate", "sideways"); !errors.Is(err, errUsage) {
		t.Errorf("migrate sideways = %v, want a usage error", err)
	}
}

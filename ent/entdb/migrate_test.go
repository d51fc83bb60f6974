package entdb_test

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// legacyDatabase opens an empty test database and builds it the way
// releases before versioned migrations did: ent's automatic migration.
func legacyDatabase(t *testing.T) *entdb.DB {
	t.Helper()
	db := openEmpty(t)
	if err := db.AutoMigrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestMigrateDropsUndeclaredIndexes: an auto-migrated database made by an
// older schema loses, when adopted, the indexes the schema no longer
// declares (here the lone project_id index vouchers had before
// (project_id, code) was found to cover it).
func TestMigrateDropsUndeclaredIndexes(t *testing.T) {
	db := legacyDatabase(t)
	ctx := context.Background()
	if _, err := db.SQL.ExecContext(ctx, "CREATE INDEX voucher_project_id ON vouchers (project_id)"); err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	query := "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'voucher_project_id'"
	if entdbtest.IsPostgres() {
		query = "SELECT count(*) FROM pg_indexes WHERE indexname = 'voucher_project_id'"
	}
	var n int
	if err := db.SQL.QueryRowContext(ctx, query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("the undeclared index survived the migration")
	}
}

// TestMigrateRenamesDuplicateProjectNames: an auto-migrated database made
// before project names were unique, holding two projects of one name, is
// still adopted: the younger one gets its id appended, and the unique index
// is created.
func TestMigrateRenamesDuplicateProjectNames(t *testing.T) {
	db := legacyDatabase(t)
	ctx := context.Background()
	if _, err := db.SQL.ExecContext(ctx, "DROP INDEX project_name"); err != nil {
		t.Fatal(err)
	}
	a := db.Client.Project.Create().SetName("Shop").SaveX(ctx)
	b := db.Client.Project.Create().SetName("Shop").SaveX(ctx)
	c := db.Client.Project.Create().SetName("Other").SaveX(ctx)
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	older, younger := a, b
	if b.ID < a.ID {
		older, younger = b, a
	}
	for id, want := range map[string]string{older.ID: "Shop", younger.ID: "Shop (" + younger.ID + ")", c.ID: "Other"} {
		if got := db.Client.Project.GetX(ctx, id).Name; got != want {
			t.Errorf("project %s is named %q, want %q", id, got, want)
		}
	}
	if _, err := db.Client.Project.Create().SetName("Shop").Save(ctx); err == nil {
		t.Error("a third project named Shop was stored: no unique index")
	}
}

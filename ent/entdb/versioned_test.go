package entdb_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/migrate/migrations"
)

// openEmpty opens a fresh, unmigrated test database.
func openEmpty(t *testing.T) *entdb.DB {
	t.Helper()
	db, err := entdb.Open(context.Background(), entdbtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestMigrationFilesMatchTheSchema replays the embedded migration
// directory on an empty database and compares it with the ent schema: a
// schema change without its migration file fails here (and so in CI).
func TestMigrationFilesMatchTheSchema(t *testing.T) {
	db := openEmpty(t)
	dir, err := migrations.Dir(db.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	err = db.DiffMigrations(context.Background(), dir, "pending_changes")
	if !errors.Is(err, migrate.ErrNoPlan) {
		files, _ := dir.Files()
		var extra string
		if len(files) > 0 {
			extra = string(files[len(files)-1].Bytes())
		}
		if err != nil {
			t.Fatalf("comparing the %s migrations with the ent schema: %v", db.Dialect, err)
		}
		t.Fatalf("the %s migrations differ from the ent schema; run `.ci/migration-diff NAME` and commit the files. Missing changes:\n%s",
			db.Dialect, extra)
	}
}

// TestMigrateUpOnAnEmptyDatabase: every file is pending, up applies them
// all, and the database is then current and usable.
func TestMigrateUpOnAnEmptyDatabase(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	dir, _ := migrations.Dir(db.Dialect)
	files, _ := dir.Files()
	st, err := db.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Pending) != len(files) || st.Unversioned || st.Current() {
		t.Fatalf("status of an empty database = %+v, want all %d files pending", st, len(files))
	}
	if err := db.CheckSchema(ctx); !errors.Is(err, entdb.ErrSchemaBehind) {
		t.Fatalf("CheckSchema on an empty database = %v, want ErrSchemaBehind", err)
	}
	res, err := db.Up(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != len(files) || res.Adopted {
		t.Errorf("up applied %v (adopted %v), want the %d files", res.Applied, res.Adopted, len(files))
	}
	if st, _ = db.Status(ctx); !st.Current() || len(st.Applied) != len(files) {
		t.Errorf("status after up = %+v", st)
	}
	if err := db.CheckSchema(ctx); err != nil {
		t.Errorf("CheckSchema after up: %v", err)
	}
	if res, err = db.Up(ctx); err != nil || len(res.Applied) != 0 {
		t.Errorf("a second up applied %v (%v), want nothing", res.Applied, err)
	}
	if _, err := db.Client.Project.Create().SetName("Shop").Save(ctx); err != nil {
		t.Errorf("the migrated schema refuses a project: %v", err)
	}
}

// TestMigrateAdoptsAnAutoMigratedDatabase: a database made by the automatic
// migration of earlier releases is refused by the check, adopted by up with
// its data, and current afterwards.
func TestMigrateAdoptsAnAutoMigratedDatabase(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	if err := db.AutoMigrate(ctx); err != nil {
		t.Fatal(err)
	}
	p := db.Client.Project.Create().SetName("Shop").SaveX(ctx)
	st, err := db.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Unversioned || st.Current() {
		t.Fatalf("status of an auto-migrated database = %+v, want unversioned", st)
	}
	if err := db.CheckSchema(ctx); !errors.Is(err, entdb.ErrSchemaBehind) {
		t.Fatalf("CheckSchema = %v, want ErrSchemaBehind", err)
	}
	res, err := db.Up(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Adopted || len(res.Applied) != 0 {
		t.Errorf("up = %+v, want an adoption applying no file", res)
	}
	if st, _ = db.Status(ctx); !st.Current() {
		t.Errorf("status after adoption = %+v", st)
	}
	if got := db.Client.Project.GetX(ctx, p.ID).Name; got != "Shop" {
		t.Errorf("the project is named %q after adoption", got)
	}
}

// TestConcurrentUpsMigrateOnce: two processes starting at once on one
// database both succeed, and each file is recorded once.
func TestConcurrentUpsMigrateOnce(t *testing.T) {
	url := entdbtest.URL(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	applied := make([]int, 2)
	for i := range errs {
		db, err := entdb.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := db.Up(ctx)
			errs[i], applied[i] = err, len(res.Applied)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	dir, _ := migrations.Dir(entdbtest.Dialect())
	files, _ := dir.Files()
	if applied[0]+applied[1] != len(files) {
		t.Errorf("the two ups applied %d and %d files, want %d in all", applied[0], applied[1], len(files))
	}
}

// TestMigrateUpOnAnOutdatedDatabase: a database that applied only the
// first file is refused by the check and brought current by up.
func TestMigrateUpOnAnOutdatedDatabase(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	dir, _ := migrations.Dir(db.Dialect)
	files, _ := dir.Files()
	if len(files) < 2 {
		t.Fatalf("this test needs two migration files, found %d", len(files))
	}
	if res, err := db.UpN(ctx, 1); err != nil || len(res.Applied) != 1 {
		t.Fatalf("applying the first file: %v, %v", res, err)
	}
	// Data of the old schema the later files must carry over: a campaign
	// whose category_id (free text before categories existed) names nothing.
	for _, stmt := range []string{
		`INSERT INTO projects (id, created_at, name) VALUES ('proj_old', CURRENT_TIMESTAMP, 'Old')`,
		`INSERT INTO campaigns (id, project_id, created_at, name, campaign_type, type, metadata, category_id, category)
			VALUES ('camp_old', 'proj_old', CURRENT_TIMESTAMP, 'Summer', 'DISCOUNT_COUPONS', 'STATIC', '{}', 'cat_free_text', 'Seasonal')`,
	} {
		if _, err := db.SQL.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	st, err := db.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Applied) != 1 || len(st.Pending) != len(files)-1 {
		t.Fatalf("status of an outdated database = %+v", st)
	}
	if err := db.CheckSchema(ctx); !errors.Is(err, entdb.ErrSchemaBehind) {
		t.Fatalf("CheckSchema = %v, want ErrSchemaBehind", err)
	}
	res, err := db.Up(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != len(files)-1 || res.Applied[0] != files[1].Name() {
		t.Errorf("up applied %v, want the %d later files", res.Applied, len(files)-1)
	}
	if st, _ = db.Status(ctx); !st.Current() {
		t.Errorf("status after up = %+v", st)
	}
	var name string
	var categoryID *string
	err = db.SQL.QueryRowContext(ctx, "SELECT name, category_id FROM campaigns WHERE id = 'camp_old'").Scan(&name, &categoryID)
	if err != nil || name != "Summer" || categoryID != nil {
		t.Errorf("the old campaign after up: name %q, category_id %v, %v; want Summer with no category id", name, categoryID, err)
	}
}

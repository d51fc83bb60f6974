package entdb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent/migrate/migrations"
)

// TestVoucherCategoriesMigrationKeepsData: vouchers stored before the
// voucher→category foreign key keep a category_id only when it names a
// category of their project; otherwise their category tag links the
// category of that name, if any.
func TestVoucherCategoriesMigrationKeepsData(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	dir, _ := migrations.Dir(db.Dialect)
	files, _ := dir.Files()
	step := -1
	for i, f := range files {
		if strings.HasSuffix(f.Name(), "_voucher_categories.sql") {
			step = i
		}
	}
	if step < 1 {
		t.Fatalf("no voucher_categories migration among %d files", len(files))
	}
	if _, err := db.UpN(ctx, step); err != nil {
		t.Fatal(err)
	}
	voucher := func(id, categoryID, category string) string {
		return `INSERT INTO vouchers (id, project_id, created_at, code, type, metadata, category_id, category)
			VALUES ('` + id + `', 'proj_a', CURRENT_TIMESTAMP, '` + id + `', 'DISCOUNT_VOUCHER', '{}', ` + categoryID + `, ` + category + `)`
	}
	for _, stmt := range []string{
		`INSERT INTO projects (id, created_at, name) VALUES ('proj_a', CURRENT_TIMESTAMP, 'A')`,
		`INSERT INTO projects (id, created_at, name) VALUES ('proj_b', CURRENT_TIMESTAMP, 'B')`,
		`INSERT INTO categories (id, project_id, created_at, name, hierarchy) VALUES ('cat_a', 'proj_a', CURRENT_TIMESTAMP, 'Seasonal', 1)`,
		`INSERT INTO categories (id, project_id, created_at, name, hierarchy) VALUES ('cat_b', 'proj_b', CURRENT_TIMESTAMP, 'Other', 1)`,
		voucher("v_kept", "'cat_a'", "'Seasonal'"),
		voucher("v_by_name", "'free text'", "'Seasonal'"),
		voucher("v_foreign", "'cat_b'", "'Other'"),
		voucher("v_none", "NULL", "'Unknown'"),
	} {
		if _, err := db.SQL.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Up(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"v_kept": "cat_a", "v_by_name": "cat_a", "v_foreign": "", "v_none": ""}
	for id, w := range want {
		var got *string
		if err := db.SQL.QueryRowContext(ctx, "SELECT category_id FROM vouchers WHERE id = '"+id+"'").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if (got == nil) != (w == "") || (got != nil && *got != w) {
			t.Errorf("%s: category_id %v, want %q", id, got, w)
		}
	}
}

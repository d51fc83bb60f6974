package entdb

import (
	"testing"

	"entgo.io/ent/dialect/sql/schema"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/migrate"
)

// TestNoBytesColumns guards textArgs: on PostgreSQL every byte-slice
// argument is sent as text, which is right only while no column stores
// raw bytes. Store binary values as hex or base64 strings instead.
func TestNoBytesColumns(t *testing.T) {
	for _, table := range migrate.Tables {
		for _, col := range table.Columns {
			if col.Type == field.TypeBytes {
				t.Errorf("%s.%s is a bytes column; store it as text (hex/base64)", table.Name, col.Name)
			}
		}
	}
}

// TestProjectIndexes: tenancy filters every query by project_id, so each
// project-owned table needs an index that starts with it — and only one
// kind: a lone project_id index next to a composite one that starts with
// project_id only costs every insert and update (set
// ProjectMixin.IndexedElsewhere on such entities).
func TestProjectIndexes(t *testing.T) {
	for _, table := range migrate.Tables {
		if !hasColumn(table, "project_id") || table.Name == "projects" {
			continue
		}
		var alone, composite int
		for _, idx := range table.Indexes {
			switch {
			case idx.Columns[0].Name != "project_id":
			case len(idx.Columns) == 1:
				alone++
			default:
				composite++
			}
		}
		switch {
		case alone+composite == 0:
			t.Errorf("%s: no index starts with project_id", table.Name)
		case alone > 0 && composite > 0:
			t.Errorf("%s: the project_id index is redundant next to a composite index that starts with it", table.Name)
		}
	}
}

func hasColumn(table *schema.Table, name string) bool {
	for _, col := range table.Columns {
		if col.Name == name {
			return true
		}
	}
	return false
}

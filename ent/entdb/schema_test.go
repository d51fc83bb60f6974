package entdb

import (
	"testing"

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

// Package migrations holds promoengine's versioned schema migrations: one
// directory of Atlas-format SQL files (with its atlas.sum) per dialect,
// embedded in the binary. The files are written by
// `.ci/migration-diff NAME` from the ent schema and never edited by hand;
// a test in ent/entdb fails when they and the schema disagree.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
)

//go:embed postgres sqlite
var files embed.FS

// SubDir names the directory of a dialect's migrations, relative to this
// package: "postgres" or "sqlite".
func SubDir(dia string) (string, error) {
	switch dia {
	case dialect.Postgres:
		return "postgres", nil
	case dialect.SQLite:
		return "sqlite", nil
	}
	return "", fmt.Errorf("migrations: no migration directory for dialect %q", dia)
}

// Dir returns a fresh in-memory copy of the embedded migration directory
// of a dialect (dialect.Postgres or dialect.SQLite), atlas.sum included.
func Dir(dia string) (migrate.Dir, error) {
	sub, err := SubDir(dia)
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(files, sub)
	if err != nil {
		return nil, fmt.Errorf("migrations: reading %s: %w", sub, err)
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(files, sub+"/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("migrations: reading %s/%s: %w", sub, e.Name(), err)
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, fmt.Errorf("migrations: loading %s/%s: %w", sub, e.Name(), err)
		}
	}
	return dir, nil
}

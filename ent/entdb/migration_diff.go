package entdb

import (
	"context"
	"fmt"

	"ariga.io/atlas/sql/migrate"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	entmigrate "github.com/promoengine/promoengine/ent/migrate"
)

// DiffMigrations replays dir on this database, which must be empty (a dev
// database), compares the result with the ent schema, and writes the
// difference to dir as a new migration file called name (and updates its
// atlas.sum). It returns migrate.ErrNoPlan when the directory already
// describes the schema. The database is left empty.
func (d *DB) DiffMigrations(ctx context.Context, dir migrate.Dir, name string) error {
	m, err := schema.NewMigrate(entsql.OpenDB(d.Dialect, d.SQL),
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithFormatter(migrate.DefaultFormatter),
		schema.WithDialect(d.Dialect),
		schema.WithDropIndex(true),
		schema.WithDropColumn(true),
		schema.WithErrNoPlan(true),
	)
	if err != nil {
		return fmt.Errorf("planning migrations: %w", err)
	}
	if err := m.NamedDiff(ctx, name, entmigrate.Tables...); err != nil {
		return fmt.Errorf("planning migrations: %w", err)
	}
	return nil
}

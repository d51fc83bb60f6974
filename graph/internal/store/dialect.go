package store

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/project"
)

// LockProject serialises writers of one project until the transaction in
// ctx ends, for invariants that count rows before inserting (the OAuth
// token limit). On PostgreSQL it locks the project row FOR UPDATE, which
// holds across server processes; SQLite transactions start with the write
// lock (BEGIN IMMEDIATE, see entdb), so there is nothing more to do.
func LockProject(ctx context.Context, c *ent.Client, projectID string) error {
	switch d := entdb.DialectFromContext(ctx); d {
	case dialect.Postgres:
		if _, err := c.Project.Query().Where(project.ID(projectID)).ForUpdate().Only(ctx); err != nil {
			return fmt.Errorf("locking project %s: %w", projectID, err)
		}
		return nil
	case dialect.SQLite:
		return nil
	default:
		return fmt.Errorf("locking project: unknown database dialect %q in context", d)
	}
}

// IsPostgres reports whether ctx carries the PostgreSQL dialect.
func IsPostgres(ctx context.Context) bool { return entdb.DialectFromContext(ctx) == dialect.Postgres }

// Dialect is the database dialect ctx carries, SQLite when it carries
// none (the embedded default): hand-written statements build their text
// per dialect.
func Dialect(ctx context.Context) string {
	if d := entdb.DialectFromContext(ctx); d != "" {
		return d
	}
	return dialect.SQLite
}

package main

import (
	"context"
	"log/slog"

	"github.com/promoengine/promoengine/ent/entdb"
)

// openAndMigrate opens the configured database and makes sure its schema
// matches this binary: pending migrations are applied when auto-migration
// is on (the SQLite default), otherwise a database behind the code is
// refused with the way out.
func openAndMigrate(ctx context.Context, cfg dbConfig, opts entdb.Options, log *slog.Logger) (*entdb.DB, error) {
	db, err := entdb.OpenWith(ctx, cfg.DatabaseURL, opts)
	if err != nil {
		return nil, err
	}
	if err := ensureSchema(ctx, db, cfg, log); err != nil {
		_ = db.Close()
		return nil, err
	}
	target := cfg.DatabaseURL
	if target == "" {
		target = entdb.DefaultSQLitePath
	}
	log.Info("database ready", "dialect", db.Dialect, "url", redactURL(target))
	return db, nil
}

// ensureSchema migrates (auto-migration on) or checks (off) the schema.
func ensureSchema(ctx context.Context, db *entdb.DB, cfg dbConfig, log *slog.Logger) error {
	auto, err := cfg.autoMigrate(db.Dialect)
	if err != nil {
		return err
	}
	if !auto {
		return db.CheckSchema(ctx)
	}
	res, err := db.Up(ctx)
	if err != nil {
		return err
	}
	if res.Adopted {
		log.Info("adopted an automatically migrated database into versioned migrations")
	}
	if len(res.Applied) > 0 {
		log.Info("applied schema migrations", "files", res.Applied)
	}
	return nil
}

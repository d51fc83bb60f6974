package graph

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// projectContext returns a fresh database and a request-like context of a
// new project in it.
func projectContext(t *testing.T) (*entdb.DB, context.Context) {
	t.Helper()
	db := entdbtest.Open(t)
	ctx := entdb.WithDialect(ent.NewContext(context.Background(), db.Client), db.Dialect)
	var creds ProjectCredentials
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		creds, err = CreateProject(ctx, "jobs", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return db, viewer.NewContext(ctx, viewer.Viewer{ProjectID: creds.ProjectID})
}

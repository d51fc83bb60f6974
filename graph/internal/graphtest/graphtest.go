// Package graphtest gives the tests of the graph packages a database and
// the context of a request of a new project in it.
package graphtest

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// ProjectContext returns a fresh database (SQLite, or PostgreSQL when
// PROMO_TEST_DATABASE_URL is set) and a request-like context of a new
// project in it, with every plan feature, carrying the ent client and the
// dialect as the REST layer's middleware does.
func ProjectContext(t testing.TB) (*entdb.DB, context.Context) {
	t.Helper()
	db := entdbtest.Open(t)
	ctx := entdb.WithDialect(ent.NewContext(context.Background(), db.Client), db.Dialect)
	p, err := db.Client.Project.Create().SetName("test").SetFeatures(feature.All).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return db, viewer.NewContext(ctx, viewer.Viewer{ProjectID: p.ID})
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// Package graphtest gives the tests of the graph packages a database and
// the context of a request of a new project in it.
package graphtest

import (
	"context"
	"encoding/json"
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

// Comparable renders a publication (or any result) as JSON with the values that differ
// between two publications (IDs, codes, times, the customer's source_id)
// reduced to whether they are set.
func Comparable(t testing.TB, pub any) map[string]any {
	t.Helper()
	b, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	varying := map[string]bool{"id": true, "created_at": true, "updated_at": true, "customer_id": true,
		"holder_id": true, "code": true, "source_id": true, "tracking_id": true, "voucher_ids": true, "campaign_id": true,
		"order_id": true, "voucher_id": true, "parent_id": true, "related_object_id": true, "voucher_code": true, "redemptions": true}
	var mask func(v any) any
	mask = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if varying[k] {
					v[k] = x != nil
				} else {
					v[k] = mask(x)
				}
			}
		case []any:
			for i := range v {
				v[i] = mask(v[i])
			}
		}
		return v
	}
	return mask(out).(map[string]any)
}

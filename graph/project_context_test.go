package graph

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/publication"
)

// projectContext returns a fresh database and a request-like context of a
// new project in it.
func projectContext(t *testing.T) (*entdb.DB, context.Context) {
	t.Helper()
	db := entdbtest.Open(t)
	ctx := entdb.WithDialect(ent.NewContext(context.Background(), db.Client), db.Dialect)
	var creds access.ProjectCredentials
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		creds, err = access.CreateProject(ctx, "jobs", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return db, viewer.NewContext(ctx, viewer.Viewer{ProjectID: creds.ProjectID})
}

// fromCampaign is a publication of one voucher of campaign name to the
// customer customerSourceID (or count vouchers).
func fromCampaign(name, customerSourceID string, count *int) publication.PublishInput {
	return publication.PublishInput{Campaign: &publication.PublishCampaignInput{Name: name, Count: count},
		Customer: &customer.CustomerInput{SourceID: &customerSourceID}}
}

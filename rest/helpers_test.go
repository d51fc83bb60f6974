package rest_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest/resttest"
)

// systemCtx reads across projects, to check what the database holds.
func systemCtx() context.Context { return viewer.NewSystemContext(context.Background()) }

// bootstrapManagementKey stores a management key the way a first start does.
func bootstrapManagementKey(t *testing.T, e *resttest.Env) graph.ManagementCredentials {
	t.Helper()
	var mk graph.ManagementCredentials
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		var err error
		mk, err = graph.CreateManagementKey(ctx, "", "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return mk
}

// waitABit pauses between polls of a background job.
func waitABit() { time.Sleep(20 * time.Millisecond) }

// quietLogger discards what test workers log.
var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

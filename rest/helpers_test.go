package rest_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// systemCtx reads across projects, to check what the database holds.
func systemCtx() context.Context { return resttest.SystemCtx() }

// count is resttest.Count.
func count(t *testing.T, e *resttest.Env, path string, h resttest.Headers) float64 {
	t.Helper()
	return resttest.Count(t, e, path, h)
}

// waitABit is resttest.WaitABit.
func waitABit() { resttest.WaitABit() }

// quietLogger discards what test workers log.
var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

package rest_test

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/promoengine/promoengine/rest/resttest"
)

// systemCtx reads across projects, to check what the database holds.
func systemCtx() context.Context { return resttest.SystemCtx() }

// waitABit pauses between polls of a background job.
func waitABit() { time.Sleep(20 * time.Millisecond) }

// quietLogger discards what test workers log.
var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

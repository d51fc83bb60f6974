package rest_test

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// systemCtx reads across projects, to check what the database holds.
func systemCtx() context.Context { return viewer.NewSystemContext(context.Background()) }

// waitABit pauses between polls of a background job.
func waitABit() { time.Sleep(20 * time.Millisecond) }

// quietLogger discards what test workers log.
var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

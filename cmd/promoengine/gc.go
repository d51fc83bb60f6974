package main

import (
	"log/slog"
	"runtime/debug"
)

// serverGOGC is the garbage collector's target the server runs with when
// the GOGC environment variable is not set: a request allocates many
// short-lived objects (JSON, SQL rows, GraphQL fields) over a small live
// heap, and at Go's default of 100 collection took 10–25% of the server's
// CPU in the validation and redemption profiles (docs/benchmarks.md). 400
// lets the heap grow to five times what is live between collections (tens
// of MB for a server process). GOGC and GOMEMLIMIT, when set, win as usual;
// set GOMEMLIMIT to cap the heap in a memory-limited container
// (docs/deploy.md).
const serverGOGC = 400

// tuneGC applies serverGOGC unless the operator set GOGC.
func tuneGC(getenv func(string) string, log *slog.Logger) {
	if getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(serverGOGC)
	log.Debug("garbage collector target set", "gogc", serverGOGC)
}

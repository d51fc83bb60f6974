package job

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
)

// Handler runs and finishes one type of job. The domains that enqueue
// jobs provide their handlers; the wiring registers them (Register).
type Handler struct {
	// Run does the job's work, committing it in batches (Worker.CommitBatch).
	Run func(ctx context.Context, w *Worker, job *ent.AsyncAction) error
	// Message is the finished job's result message and the name of its
	// count (default: "N voucher(s) generated successfully", "generated").
	Message func(job *ent.AsyncAction) (message, counted string)
	// Result, when it returns a document, replaces the job's result.
	Result func(job *ent.AsyncAction, failure error) map[string]any
	// Failed runs in the finishing transaction of a job that failed.
	Failed func(ctx context.Context, c *ent.Client, job *ent.AsyncAction, failure error) error
	// Finished runs last in the finishing transaction, once the job and
	// its campaign show as finished (events about the end).
	Finished func(ctx context.Context, jobID string, failure error) error
}

// Fallback is the type under which the handler of jobs of any other
// (unknown) type is registered.
const Fallback = ""

var handlers = map[string]Handler{}

// Register makes jobs of type typ run with h. It is meant for program
// start (graph's wiring), before any worker runs.
func Register(typ string, h Handler) { handlers[typ] = h }

// handlerFor returns the handler of typ, or the fallback. Without either
// (a wiring mistake) the job fails with a message saying so.
func handlerFor(typ string) Handler {
	if h, ok := handlers[typ]; ok {
		return h
	}
	if h, ok := handlers[Fallback]; ok {
		return h
	}
	return Handler{Run: func(context.Context, *Worker, *ent.AsyncAction) error {
		return fmt.Errorf("no handler for jobs of type %q", typ)
	}}
}

package job

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
)

// Periodic is work every worker runs now and then, beside the jobs: a
// sweep that finds what is due in the database and does it. Run must be
// safe to run by several workers (of several processes) at once — each
// item it handles moves with a guarded UPDATE — and cheap when nothing
// is due. Its ctx carries the ent client and the dialect, no viewer.
type Periodic struct {
	Name  string
	Every time.Duration
	Run   func(ctx context.Context, now time.Time) error
}

var (
	periodicMu sync.Mutex
	periodics  []Periodic
)

// RegisterPeriodic adds a sweep that every worker runs (at program start,
// from graph/wiring.go).
func RegisterPeriodic(p Periodic) {
	periodicMu.Lock()
	defer periodicMu.Unlock()
	periodics = append(periodics, p)
}

// RunPeriodic runs each registered sweep once now (for one-off runs and tests).
func (w *Worker) RunPeriodic(ctx context.Context) error {
	w.Defaults()
	periodicMu.Lock()
	ps := append([]Periodic(nil), periodics...)
	periodicMu.Unlock()
	for _, p := range ps {
		if err := p.Run(w.sweepContext(ctx), time.Now().UTC()); err != nil {
			return err
		}
	}
	return nil
}

func (w *Worker) sweepContext(ctx context.Context) context.Context {
	return entdb.WithDialect(ent.NewContext(ctx, w.Client), w.Dialect)
}

// runPeriodics runs each sweep every Every (with up to 10% jitter, so
// workers started together spread out) until ctx is cancelled.
func (w *Worker) runPeriodics(ctx context.Context) {
	periodicMu.Lock()
	ps := append([]Periodic(nil), periodics...)
	periodicMu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if err := p.Run(w.sweepContext(ctx), time.Now().UTC()); err != nil && ctx.Err() == nil {
					w.Logger.Error("periodic sweep", "worker", w.ID, "sweep", p.Name, "error", err.Error())
				}
				pause := p.Every + time.Duration(rand.Int64N(int64(p.Every/10)+1))
				select {
				case <-ctx.Done():
					return
				case <-time.After(pause):
				}
			}
		}()
	}
	wg.Wait()
}

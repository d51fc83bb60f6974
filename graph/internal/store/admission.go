package store

import (
	"context"
	"fmt"

	"golang.org/x/sync/semaphore"

	"github.com/promoengine/promoengine/ent"
)

// DefaultDBConcurrency is how many admitted operations one server process
// runs on the database at once unless configured (PROMO_DB_CONCURRENCY).
// Four measured best on a two-core machine shared by server, load and
// PostgreSQL (docs/benchmarks.md); a larger database server may take more.
const DefaultDBConcurrency = 4

// Admission lets a fixed number of operations run on the database at once
// in one process; the others wait their turn in arrival order. Admitted
// are the requests whose database work is short and outside any
// transaction: the single-statement publication (publish_statement.go)
// and, on PostgreSQL, validations without a session
// (graph/redemption/validate.go). They share the slots, since what they bound
// is the number of PostgreSQL backends busy at once.
//
// Why: with one operation running per concurrent client, the database's
// CPU is shared among as many backends by the operating system's
// scheduler, which preempts a backend in the middle of its statement for
// tens of milliseconds. A few at a time, fed first come first served,
// finish sooner each: measured at 16 clients, the publications' 99th
// percentile fell from 35–50 ms to about 10 ms with a fifth more
// throughput, and the stacked validations' from 8–12 ms to 7–8 ms at the
// same throughput.
//
// The one-statement redemption (graph/redemption/statement.go) is not
// admitted by default: four slots held across its read and its write cost
// it 7–10% of its throughput when it was built, and a third (0.67×, with a
// shorter 99th percentile) in an A/B after its rows became hand-written
// SQL (docs/benchmarks.md, "Redemption rows as hand-written SQL"). A slot
// per statement costs less; operators who prefer the shorter tail turn it
// on (AdmitRedemption).
//
// Only work outside a caller's transaction is admitted: a transaction may
// hold row locks that an admitted statement waits for, so it must never
// wait for a slot itself.
type Admission struct {
	slots *semaphore.Weighted
	// redemptions: the one-statement redemption's two statements are
	// admitted too, each on its own (AdmitRedemption).
	redemptions bool
}

// AdmittingRedemptions returns a with the one-statement redemption's
// statements admitted or not (PROMO_ADMIT_REDEMPTIONS); nil stays nil.
func (a *Admission) AdmittingRedemptions(on bool) *Admission {
	if a == nil {
		return nil
	}
	a.redemptions = on
	return a
}

// AdmitRedemption is Admit for one statement of the one-statement
// redemption (its look-up, its write): it waits only when the admission
// in ctx admits redemptions (PROMO_ADMIT_REDEMPTIONS, on by default). A
// slot per statement, not across the read and the write (tried before,
// it cost a third of the throughput): on an otherwise idle two-core host
// at 16 clients it brought the redemptions' p99/p50 from 3.6–6.6 to
// 2.1–2.3 for 0–6% of their throughput; on a host shared with other
// builds it cost 12–19% (docs/benchmarks.md, "Realistic redemption and
// the tail").
func AdmitRedemption(ctx context.Context) (release func(), err error) {
	if a, _ := ctx.Value(admissionKey{}).(*Admission); a == nil || !a.redemptions {
		return func() {}, nil
	}
	return Admit(ctx)
}

// NewAdmission returns an admission of n operations at once; n ≤ 0
// admits everything at once (nil).
func NewAdmission(n int) *Admission {
	if n <= 0 {
		return nil
	}
	return &Admission{slots: semaphore.NewWeighted(int64(n))}
}

type admissionKey struct{}

// WithAdmission returns ctx carrying a, which admitted operations wait
// for. A nil a admits everything at once.
func WithAdmission(ctx context.Context, a *Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, a)
}

// Admit waits for a slot of the admission in ctx and returns the function
// that gives it back; inside a transaction it admits at once. A cancelled
// request stops waiting with its context's error.
func Admit(ctx context.Context) (release func(), err error) {
	a, _ := ctx.Value(admissionKey{}).(*Admission)
	if a == nil || ent.TxFromContext(ctx) != nil {
		return func() {}, nil
	}
	if err := a.slots.Acquire(ctx, 1); err != nil {
		return nil, fmt.Errorf("waiting for the database: %w", err)
	}
	return func() { a.slots.Release(1) }, nil
}

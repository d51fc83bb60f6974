package redemption

import (
	"context"
	"errors"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The common redemption — one or several vouchers, no customer or one
// named by source_id, a new order, no session — is, on PostgreSQL, one read and one write
// statement outside any transaction, instead of BEGIN, a locking read,
// three writes and COMMIT:
//
//  1. evaluate reads the voucher with its row version (xmin) and no lock
//     (mode redeemGuarded), and runs every check and the calculation as
//     the transactional path does;
//  2. the ordinary writer code runs against a write batch
//     (entdb.WithWriteBatch): the order, the voucher's counters and
//     balance, its transaction and the redemptions are recorded, not sent;
//     the voucher's UPDATE carries the guard "the row is still the version
//     read";
//  3. the batch goes out as one statement, which writes everything only if
//     the guard held.
//
// A customer named by source_id is read with the vouchers, with its row
// version; its upsert is worked out in Go (customerpkg.PlanUpsertBySourceID)
// and goes first in the statement: an UPDATE guarded by that version as
// the vouchers' are, or the INSERT of a new customer, which a concurrent
// insert of the same source_id turns into a unique violation — nothing
// is written either way, and the transactional path upserts and answers.
//
// Anything that changes the voucher row between 1 and 3 — another
// redemption, a rollback, an update, a session lock (lockSession bumps the
// version) — makes the guard fail: nothing is written, and the request
// takes the transactional path, which locks the row and evaluates again.
// So the outcome is the one the locking path would give. A code whose guard
// failed goes straight to the locking path for a second (contendedCodes):
// under contention, requests queue for the row lock instead of each paying
// a lost attempt first.
//
// A stacked request of several codes is one statement the same way: its
// vouchers are one guarded UPDATE that must find every one of them
// (redeemedVouchers), its rows locked in voucher ID order (the
// transactional path's lock order), so two such statements naming the
// same codes queue rather than deadlock — and a deadlock or a lost guard
// all the same writes nothing and sends the request down the
// transactional path.
//
// The rows go out as hand-written SQL of fixed text (batched_rows.go), so
// the statement is prepared once per connection and the request spends
// no time in ent's builders and hooks.
//
// Everything else takes the transactional path from the start: SQLite,
// requests inside a caller's transaction, promotion tiers, a customer
// named by id or by nothing, an existing order, a session, a request
// that is not valid (its failure is recorded under the lock), and writers
// that read or delete (the project's webhook events: the batch refuses the
// look-up, see entdb.ErrNotBatchable).

// redeemInOneStatement runs the one-statement path when req qualifies.
// done is false when nothing was written and the transactional path must
// answer; err is set only for errors that path would answer the same way.
func redeemInOneStatement[T any](ctx context.Context, req *redemptionRequest,
	record func(*evaluation, context.Context) (T, error)) (out T, done bool, err error) {
	c := ent.FromContext(ctx)
	if !inOneStatementRedemption(ctx, req, c) {
		return out, false, nil
	}
	contended := contendedKeys(ctx, req)
	for _, k := range contended {
		if _, hot := ContendedCodes.Get(k, time.Now()); hot {
			return out, false, nil
		}
	}
	// Not admitted across the read and the write (store.Admission): four
	// slots held so cost it a third of its throughput (docs/benchmarks.md).
	// With PROMO_ADMIT_REDEMPTIONS each of the two statements is admitted
	// on its own (lookupVouchers, runAdmitted).
	e, err := evaluate(ctx, req, redeemGuarded)
	if err != nil || !e.valid || !e.guarded() {
		// Errors and failures are answered under the lock, where they are
		// recorded.
		return out, false, nil
	}
	bctx, batch := entdb.WithWriteBatch(ent.NewContext(ctx, entdb.BatchClient(c)))
	if e.customerPlan != nil { // first: the rows below refer to it
		if err := e.customerPlan.Batch(e.eventContext(bctx), batch); err != nil {
			return out, false, nil
		}
	}
	res, err := record(e, bctx)
	if err != nil {
		return out, false, nil // the transactional path answers (or fails) the same request
	}
	// The rows it writes that no other batch of a combined statement may
	// write (combine.go).
	v, _ := viewer.FromContext(ctx)
	for _, s := range e.states {
		batch.Claim("v\x00" + s.voucher.ID)
	}
	if e.customerPlan != nil && req.customer != nil && req.customer.SourceID != nil {
		batch.Claim("c\x00" + v.ProjectID + "\x00" + *req.customer.SourceID)
	}
	switch err := RunRedemptionBatch(ctx, batch, c); {
	case isUniqueViolation(err):
		// Another request inserted the customer's source_id meanwhile:
		// nothing was written, and the transactional path finds it.
		return out, false, nil
	case errors.Is(err, entdb.ErrBatchConflict):
		for _, k := range contended {
			ContendedCodes.Put(k, struct{}{}, time.Now())
		}
		return out, false, nil
	case errors.Is(err, entdb.ErrNotBatchable):
		return out, false, nil // nothing was sent
	case err != nil:
		return out, false, err
	}
	return res, true, nil
}

// isUniqueViolation reports a unique violation (SQLSTATE 23505) from
// PostgreSQL, which rolled back the whole statement.
func isUniqueViolation(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "23505"
}

// ContendedCodes are the codes (per project) whose guarded write failed in
// the last second: their redemptions take the locking path.
var ContendedCodes = store.NewTTLCache[struct{}](time.Second, 4096)

// contendedKeys are the request's entries in ContendedCodes.
func contendedKeys(ctx context.Context, req *redemptionRequest) []string {
	v, _ := viewer.FromContext(ctx)
	keys := make([]string, len(req.redeemables))
	for i, r := range req.redeemables {
		keys[i] = v.ProjectID + "\x00" + r.ID
	}
	return keys
}

// RunRedemptionBatch sends the batch; tests replace it to observe the path
// or to make the guard fail.
var RunRedemptionBatch = runBatch

// runBatch is RunRedemptionBatch's own runner: it combines concurrent
// batches (combine.go).
func runBatch(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
	return runCombining(ctx, b, c)
}

// runAdmitted sends the batch once admitted, holding the slot for this
// statement only (when the admission admits redemptions:
// store.AdmitRedemption, PROMO_ADMIT_REDEMPTIONS).
func runAdmitted(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
	release, err := store.AdmitRedemption(ctx)
	if err != nil {
		return err
	}
	defer release()
	return b.Run(ctx, c)
}

// inOneStatementRedemption reports whether the request's shape allows the
// one-statement path (see above).
func inOneStatementRedemption(ctx context.Context, req *redemptionRequest, c *ent.Client) bool {
	if c == nil || !store.IsPostgres(ctx) || ent.TxFromContext(ctx) != nil || entdb.BatchClient(c) == nil {
		return false
	}
	// A customer by source_id is upserted in the statement (planCustomer);
	// one by id or without either takes the transactional path.
	if (req.customer != nil && (req.customer.ID != nil || req.customer.SourceID == nil)) || req.session != nil {
		return false
	}
	for _, r := range req.redeemables {
		if redeemableObject(r) != "voucher" {
			return false
		}
		// A v1 reward issues what it promises (IssueReward): reads and
		// writes a write batch cannot hold.
		if w := r.Reward; w != nil && w.ID != nil && strings.HasPrefix(*w.ID, pulid.PrefixRewardV1) {
			return false
		}
	}
	return req.order == nil || (req.order.ID == nil && req.order.SourceID == nil)
}

// guarded reports whether every voucher the evaluation writes was read with
// its row version.
func (e *evaluation) guarded() bool {
	for _, s := range e.states {
		// Unit budgets count across redemptions: their keys are locked on
		// the transactional path (unit_budgets.go).
		if s.voucher == nil || s.version == "" || s.budgets != nil {
			return false
		}
	}
	return (e.customer == nil || e.customerPlan != nil) && e.storedOrder == nil && e.sessionKey == ""
}

// rowVersionIs holds for a voucher row that is still the version read
// (PostgreSQL's xmin: every update of a row makes a new version).
func rowVersionIs(version string) predicate.Voucher {
	return func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString(s.C("xmin")).WriteString(" = ").Arg(version).WriteString("::xid")
		}))
	}
}

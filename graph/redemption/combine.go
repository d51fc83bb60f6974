package redemption

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/graph/internal/combine"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Concurrent one-statement redemptions are combined (issue 29): their
// write batches go out as ONE statement (combine_sql.go) — one round
// trip, one executor start-up, one commit for K requests — each request
// still getting the answer and rows it would get alone. As the points
// path does (loyaltyv1/credit_batch.go; both queue in graph/internal/combine),
// without a timer: a request that finds fewer than CombineLanes
// statements running sends its batch at once, alone; requests arriving meanwhile queue, and when a statement is
// done its runner hands the queue to the first queued request, which
// sends it, with up to MaxCombined-1 more, as the next statement.
//
// Members never share a row: a request claiming a voucher (or a
// customer's source_id) that a member already claims waits for a later
// statement (PostgreSQL would apply only one of two updates of a row in
// one statement). Each member's rows are conditional on its own guards:
// a member whose voucher changed since its read writes nothing, and
// answers ErrBatchConflict as alone — the transactional path then
// answers it — while the others are written. Any error of a combined
// statement (a new customer's source_id inserted meanwhile, a deadlock, a
// member written in part, anything) writes nothing, and every member
// then sends its own batch alone, exactly as without combining; so no
// request is answered an error it would not get alone.
//
// Members of different projects share a statement: every row carries its
// own project (the vouchers' UPDATE matches each row's project too). A
// member whose request has gone when its statement is built is left out
// and answers its context's error; a queued member waits without watching
// its context, for at most the statements ahead of it.

// MaxCombined bounds the members of one statement.
var MaxCombined = 32

// CombineLanes is how many statements of combined redemptions a process
// runs at once (per database); requests arriving while every lane runs
// queue for the next free one. Two, measured on an idle 2-core host
// (docs/benchmarks.md, "Combined redemptions on an idle host"): with one
// lane the statements of a process run one after another, the host idles
// ~0.35 core and the 5-code and realistic redemptions lost 5–15% of
// their throughput to the base; with two each combined statement holds
// fewer members (4–5 instead of 7–8) but every load gained on the base.
var CombineLanes = 2

// CombineRedemptions switches the combining on (tests compare without).
var CombineRedemptions = true

// combinedStatements and combinedMembers count the combined statements
// that wrote (two or more members) and the members they wrote.
var combinedStatements, combinedMembers atomic.Int64

// CombinedCounts reports how many combined statements this process ran
// (of two or more members) and how many members they wrote.
func CombinedCounts() (statements, members int64) {
	return combinedStatements.Load(), combinedMembers.Load()
}

// beforeCombined, when set (tests), runs just before a combined
// statement is sent.
var beforeCombined func(ctx context.Context, members int)

// combineMember is one request's batch waiting in a combiner.
type combineMember struct {
	ctx    context.Context
	batch  *entdb.WriteBatch
	member *combinedMember
}

// combineResult is a member's outcome.
type combineResult struct {
	alone bool  // the combined statement failed: send the batch alone
	err   error // nil: written; ErrBatchConflict: its guard was lost
}

// combiner is one database's queue.
type combiner = combine.Queue[*combineMember, combineResult]

var combiners sync.Map // *ent.Client → *combiner

// runCombining sends b, combined with concurrent batches when it can be
// (see above), otherwise alone (runAdmitted).
func runCombining(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
	if !CombineRedemptions || MaxCombined < 2 {
		return runAdmitted(ctx, b, c)
	}
	m, ok := readMember(b)
	if !ok {
		return runAdmitted(ctx, b, c)
	}
	cv, _ := combiners.LoadOrStore(c, &combiner{})
	cb := cv.(*combiner)
	me := &combineMember{ctx: ctx, batch: b, member: m}
	// Free or Lead: this request's batch goes now, with queued ones.
	if turn, r := cb.Join(CombineLanes, me); turn == combine.Answered {
		return r.answer(ctx, b, c)
	}
	return lead(ctx, c, cb, me).answer(ctx, b, c)
}

// answer is the member's outcome: a batch whose combined statement failed
// is sent alone.
func (r combineResult) answer(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
	if r.alone {
		return runAdmitted(ctx, b, c)
	}
	return r.err
}

// lead sends first's batch with queued ones that share no row with it,
// answers each member, hands the lane on and returns first's outcome.
func lead(ctx context.Context, c *ent.Client, cb *combiner, first *combineMember) combineResult {
	defer cb.HandOver()
	claimed := map[string]struct{}{}
	for _, k := range first.batch.Claims() {
		claimed[k] = struct{}{}
	}
	took := cb.Take(MaxCombined-1, func(m *combineMember) bool {
		if overlaps(claimed, m.batch.Claims()) {
			return false
		}
		for _, k := range m.batch.Claims() {
			claimed[k] = struct{}{}
		}
		return true
	})
	batch := combine.Batch(first, took)
	results := send(context.WithoutCancel(ctx), c, batch)
	combine.AnswerTaken(took, results)
	return results[0]
}

func overlaps(claimed map[string]struct{}, keys []string) bool {
	for _, k := range keys {
		if _, ok := claimed[k]; ok {
			return true
		}
	}
	return false
}

// send runs one statement for the live members of batch and returns each
// member's outcome, in order.
func send(ctx context.Context, c *ent.Client, batch []*combineMember) []combineResult {
	results := make([]combineResult, len(batch))
	var live []int
	for i, m := range batch {
		if err := m.ctx.Err(); err != nil {
			results[i] = combineResult{err: err}
			continue
		}
		live = append(live, i)
	}
	switch len(live) {
	case 0:
		return results
	case 1: // alone: today's statement
		i := live[0]
		results[i] = combineResult{err: runAdmitted(batch[i].ctx, batch[i].batch, c)}
		return results
	}
	members := make([]*combinedMember, len(live))
	for j, i := range live {
		members[j] = batch[i].member
	}
	written, err := runCombined(ctx, c, members)
	var pqErr *pq.Error
	rolledBack := errors.As(err, &pqErr) || errors.Is(err, errNotSent)
	for j, i := range live {
		switch {
		case err != nil && rolledBack:
			results[i] = combineResult{alone: true}
		case err != nil: // the statement's fate is unknown (the connection failed): as alone
			results[i] = combineResult{err: err}
		case written[j]:
			results[i] = combineResult{}
		default:
			results[i] = combineResult{err: entdb.ErrBatchConflict}
		}
	}
	return results
}

// runCombined sends members as one statement (admitted as one
// redemption statement) and reports which were written; an error means
// nothing was written.
func runCombined(ctx context.Context, c *ent.Client, members []*combinedMember) ([]bool, error) {
	query, args, err := combinedStatement(ctx, c, members)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNotSent, err)
	}
	if beforeCombined != nil {
		beforeCombined(ctx, len(members))
	}
	release, err := store.AdmitRedemption(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNotSent, err)
	}
	defer release()
	got, err := queryWritten(ctx, c, query, args)
	if err != nil {
		return nil, err
	}
	written := make([]bool, len(members))
	n := int64(0)
	for _, m := range got {
		if m < 0 || int(m) >= len(members) || written[m] {
			return nil, errors.New("combined redemptions: an unexpected member written")
		}
		written[m] = true
		n++
	}
	if n > 0 {
		combinedStatements.Add(1)
		combinedMembers.Add(n)
	}
	return written, nil
}

// errNotSent: the combined statement was not sent.
var errNotSent = errors.New("combined redemptions: not sent")

// queryWritten runs the combined statement and reads the members written.
// A *pq.Error means PostgreSQL rolled the statement back.
func queryWritten(ctx context.Context, c *ent.Client, query string, args []any) (pq.Int64Array, error) {
	rows, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("combined redemptions: %w", err)
	}
	var got pq.Int64Array
	var one int
	for rows.Next() {
		if err := rows.Scan(&got, &one); err != nil {
			return nil, errors.Join(fmt.Errorf("combined redemptions: %w", err), rows.Close())
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("combined redemptions: %w", err)
	}
	return got, nil
}

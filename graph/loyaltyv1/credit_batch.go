package loyaltyv1

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/combine"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// Concurrent point additions to the same card are combined: the first
// request to find no statement running on its card runs one (it leads),
// and requests arriving meanwhile queue; when the statement is done the
// leader hands the queue to its first request, which runs them all in the
// next statement (credit_statement.go takes arrays: one UPDATE of the card
// by their total, one bucket and one transaction per move, each recording
// the balance after its own move). One busy card then sees one UPDATE per
// round instead of one per request — the row lock, the waits of the other
// requests behind it and their re-checks of the updated row are paid once
// per round — while every request still gets its own transaction, bucket
// and answer. A batch is all or nothing: when its statement updates
// nothing (a guard failed for the total, which it may not have for a
// single move) every move in it goes to the general path, one by one,
// which decides each as if it had come alone.
//
// Only requests outside a transaction are combined (REST's points call;
// a GraphQL mutation's transaction runs its move alone, as it must commit
// or roll back with the rest of the mutation), and only moves that agree
// on everything but the move itself: the card, the project, the program
// the request named, and the day the points expire. Combining is within
// one process; several processes on one card still serialise on its row.

// maxCreditBatch bounds the moves of one statement.
const maxCreditBatch = 64

// creditKey is what moves combined in one statement share.
type creditKey struct {
	project, card, program string
	hasProgram             bool
	lastDay                string // YYYY-MM-DD; "" never expires
	byRules                bool
	rules                  string // the program's expiration rules as read
	hasRules               bool
}

// creditMove is one request's part of a statement.
type creditMove struct {
	ctx              context.Context
	points           int64
	at               time.Time
	lastDay          *time.Time
	bucketID, txID   string
	sourceID, reason *string
	source, details  string
}

// creditResult is a move's outcome.
type creditResult struct {
	written         bool // false: the general path decides
	card            string
	points, balance int64
	err             error
}

// credits queues the moves of each key while a statement runs on it.
var credits = combine.NewKeyed[creditKey, *creditMove, creditResult]()

// creditStatements and creditMoves count the statements run and the moves
// they wrote, since the process started.
var creditStatements, creditMoves atomic.Int64

// CreditCounts reports how many point-addition statements this process ran
// and how many moves they wrote: more moves than statements means moves
// were combined.
func CreditCounts() (statements, moves int64) {
	return creditStatements.Load(), creditMoves.Load()
}

// addCredit runs m with the moves queued with it and returns its outcome.
func addCredit(ctx context.Context, c *ent.Client, key creditKey, m *creditMove) creditResult {
	if turn, r := credits.Join(key, m); turn == combine.Answered {
		return r
	}
	// Leading (a free key, or handed the key's lane): m goes first.
	return leadCredits(ctx, c, key, m)
}

// leadCredits runs first with the moves queued meanwhile, up to
// maxCreditBatch, answers them, hands the key's queue on and returns
// first's outcome.
func leadCredits(ctx context.Context, c *ent.Client, key creditKey, first *creditMove) creditResult {
	defer credits.HandOver(key)
	took := credits.Take(key, maxCreditBatch-1)
	batch := combine.Batch(first, took)
	results := runCredits(context.WithoutCancel(ctx), c, key, batch)
	combine.AnswerTaken(took, results)
	return results[0]
}

// runCredits runs one statement for moves and answers each move's outcome,
// in order. A move whose request has gone is left out and answers its
// context's error.
func runCredits(ctx context.Context, c *ent.Client, key creditKey, moves []*creditMove) []creditResult {
	results := make([]creditResult, len(moves))
	live := make([]int, 0, len(moves))
	for i, m := range moves {
		if err := m.ctx.Err(); err != nil {
			results[i] = creditResult{err: err}
			continue
		}
		live = append(live, i)
	}
	if len(live) == 0 {
		return results
	}
	rows, err := execCredits(ctx, c, key, moves, live)
	for j, i := range live {
		switch {
		case err != nil:
			results[i] = creditResult{err: err}
		case rows == nil:
			results[i] = creditResult{} // not written: the general path decides
		default:
			results[i] = rows[j]
		}
	}
	return results
}

// execCredits runs creditStatementSQL for the live moves; nil rows (and no
// error) when it wrote nothing.
func execCredits(ctx context.Context, c *ent.Client, key creditKey, moves []*creditMove, live []int) ([]creditResult, error) {
	n := len(live)
	pts := make([]int64, n)
	ats := make([]string, n)
	bucketIDs, txIDs, sources, details := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	sourceIDs, reasons := make([]sql.NullString, n), make([]sql.NullString, n)
	for j, i := range live {
		m := moves[i]
		pts[j], ats[j] = m.points, m.at.Format(time.RFC3339Nano)
		bucketIDs[j], txIDs[j], sources[j], details[j] = m.bucketID, m.txID, m.source, m.details
		sourceIDs[j], reasons[j] = nullString(m.sourceID), nullString(m.reason)
	}
	var lastDay, lastDayText, expected, program any
	if first := moves[live[0]]; first.lastDay != nil {
		lastDay, lastDayText = *first.lastDay, key.lastDay
	}
	if key.hasRules {
		expected = key.rules
	}
	if key.hasProgram {
		program = key.program
	}
	release, err := store.Admit(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	rows, err := c.QueryContext(ctx, creditStatementSQL, key.card, key.project, pq.Array(pts), lastDayText, pq.Array(ats),
		int64(loyalty.MaxPoints), pq.Array(bucketIDs), lastDay, pq.Array(txIDs), pq.Array(sourceIDs), pq.Array(reasons),
		pq.Array(sources), pq.Array(details), key.byRules, expected, program)
	if err != nil {
		return nil, fmt.Errorf("adding points: %w", err)
	}
	var out []creditResult
	for rows.Next() {
		var ord int64
		r := creditResult{written: true}
		if err := rows.Scan(&ord, &r.card, &r.points, &r.balance); err != nil {
			return nil, errors.Join(fmt.Errorf("reading added points: %w", err), rows.Close())
		}
		out = append(out, r)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("adding points: %w", err)
	}
	if len(out) != 0 && len(out) != n {
		return nil, fmt.Errorf("adding points: %d answers for %d moves", len(out), n)
	}
	if len(out) != 0 {
		creditStatements.Add(1)
		creditMoves.Add(int64(n))
	}
	return out, nil
}

func nullString(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}

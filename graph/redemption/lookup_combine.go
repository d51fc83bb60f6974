package redemption

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/combine"
)

// Concurrent look-ups of one-statement redemptions are combined, as their
// writes are (combine.go): a look-up that finds fewer than LookupLanes
// look-up statements running sends its own statement at once, exactly as
// alone; look-ups arriving meanwhile queue, and when a statement is done
// its runner hands the queue to the first queued look-up, which reads up
// to MaxCombinedLookups members' codes as ONE statement:
//
//	SELECT r.m, <the look-up's columns>
//	FROM unnest(members, projects, codes, customers, nows) r
//	JOIN vouchers v ON v.project_id = r.project AND v.code = r.code
//	LEFT JOIN campaigns c …  LEFT JOIN customers cu ON cu.source_id = r.cust …
//	ORDER BY r.m, v.id
//
// Every row is tagged with its member, and every table is matched on the
// project of the member's row, so a member gets exactly the rows its own
// look-up would give (same project scoping, same order, the session locks
// unexpired at its own now, its own customer) and no other project's.
// No timer; a queued member waits without watching its context, for at
// most the statements ahead of it, and one whose request has gone when
// the statement is built is left out (it answers its context's error).
// Any error of a combined statement makes every member look up alone.
// Only the plain form is combined: codes matched by code alone (no
// voucher-ID look-alike), no customer or one named by source_id, outside
// a transaction; any other look-up runs alone as before.

// MaxCombinedLookups bounds the members of one combined look-up.
var MaxCombinedLookups = 32

// LookupLanes is how many look-up statements of one-statement redemptions
// a process runs at once (per database) before look-ups queue.
var LookupLanes = 1

// CombineLookups switches the look-ups' combining on (tests compare
// without).
var CombineLookups = true

// combinedLookups and combinedLookupMembers count the combined look-up
// statements (of two or more members) and their members.
var combinedLookups, combinedLookupMembers atomic.Int64

// CombinedLookupCounts reports how many combined look-up statements this
// process ran (of two or more members) and how many members they read.
func CombinedLookupCounts() (statements, members int64) {
	return combinedLookups.Load(), combinedLookupMembers.Load()
}

// beforeCombinedLookup, when set (tests), runs just before a combined
// look-up is sent.
var beforeCombinedLookup func(ctx context.Context, members int)

// forceLookupFailure (tests) makes the combined look-up a statement
// PostgreSQL refuses.
var forceLookupFailure bool

// lookupMember is one request's look-up waiting in a lookupCombiner.
type lookupMember struct {
	ctx     context.Context
	project string
	codes   []string // distinct
	cust    *customerRef
	now     time.Time
}

// lookupOutcome is a member's outcome.
type lookupOutcome struct {
	alone bool // the combined statement failed: look up alone
	res   lookupResult
	err   error
}

// lookupCombiner is one database's queue of look-ups.
type lookupCombiner = combine.Queue[*lookupMember, lookupOutcome]

var lookupCombiners sync.Map // *ent.Client → *lookupCombiner

// combinable reports whether a look-up of that form can be combined.
func combinable(key lookupQueryKey, cust *customerRef) bool {
	return CombineLookups && MaxCombinedLookups > 1 && key.version && !key.lock && !key.byID &&
		(cust == nil || !cust.byID)
}

// lookupCombining is the look-up of a one-statement redemption, combined
// with concurrent ones when it can be; alone runs it alone (the plain
// statement of lookupVouchers).
func lookupCombining(ctx context.Context, c *ent.Client, project string, codes []string, cust *customerRef, now time.Time,
	alone func() (lookupResult, error)) (lookupResult, error) {
	cv, _ := lookupCombiners.LoadOrStore(c, &lookupCombiner{})
	lc := cv.(*lookupCombiner)
	me := &lookupMember{ctx: ctx, project: project, codes: distinct(codes), cust: cust, now: now}
	turn, r := lc.Join(LookupLanes, me)
	switch turn {
	case combine.Free: // a free lane: this look-up goes at once, alone, as before
		defer lc.HandOver()
		return alone()
	case combine.Lead: // this member's statement holds the lane until it is done
		defer lc.HandOver()
		r = leadLookup(ctx, c, lc, me)
	}
	if r.alone {
		return alone()
	}
	return r.res, r.err
}

// leadLookup reads first's codes with up to MaxCombinedLookups-1 queued
// members' as one statement, answers each other member and returns
// first's outcome (its caller hands the lane on when first is done).
func leadLookup(ctx context.Context, c *ent.Client, lc *lookupCombiner, first *lookupMember) lookupOutcome {
	took := lc.Take(max(MaxCombinedLookups, 1)-1, nil)
	batch := combine.Batch(first, took)
	outcomes := make([]lookupOutcome, len(batch))
	var live []*lookupMember
	var liveAt []int
	for i, m := range batch {
		if err := m.ctx.Err(); err != nil {
			outcomes[i] = lookupOutcome{err: err}
			continue
		}
		live, liveAt = append(live, m), append(liveAt, i)
	}
	switch len(live) {
	case 0:
	case 1: // alone: the plain statement
		outcomes[liveAt[0]] = lookupOutcome{alone: true}
	default:
		results, err := runCombinedLookupSafely(context.WithoutCancel(ctx), c, live)
		for j, i := range liveAt {
			if err != nil {
				outcomes[i] = lookupOutcome{alone: true}
				continue
			}
			outcomes[i] = lookupOutcome{res: results[j]}
		}
	}
	combine.AnswerTaken(took, outcomes)
	return outcomes[0]
}

// runCombinedLookupSafely is runCombinedLookup with a panic turned into
// its error: the members then look up alone, and the lane is handed on
// (a panic past lead would leave the queue waiting for ever).
func runCombinedLookupSafely(ctx context.Context, c *ent.Client, members []*lookupMember) (results []lookupResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			results, err = nil, fmt.Errorf("combined look-up: panic: %v", p)
		}
	}()
	return runCombinedLookup(ctx, c, members)
}

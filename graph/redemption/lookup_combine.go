package redemption

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/webhook"
	"github.com/promoengine/promoengine/graph/internal/store"
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
	done    chan lookupOutcome // buffered (1)
}

// lookupOutcome is a member's outcome.
type lookupOutcome struct {
	lead  bool // the member leads the next statement
	alone bool // the combined statement failed: look up alone
	res   lookupResult
	err   error
}

// lookupCombiner is one database's queue of look-ups.
type lookupCombiner struct {
	mu      sync.Mutex
	running int
	pending []*lookupMember
}

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
	me := &lookupMember{ctx: ctx, project: project, codes: distinct(codes), cust: cust, now: now,
		done: make(chan lookupOutcome, 1)}
	lc.mu.Lock()
	if lc.running < max(LookupLanes, 1) {
		lc.running++
		lc.mu.Unlock()
		// A free lane: this look-up goes at once, alone, as before.
		defer lc.handOver()
		return alone()
	}
	lc.pending = append(lc.pending, me)
	lc.mu.Unlock()
	r := <-me.done
	if r.lead { // this member's statement holds the lane until it is done
		defer lc.handOver()
		r = lc.lead(ctx, c, me)
	}
	if r.alone {
		return alone()
	}
	return r.res, r.err
}

// handOver gives the lane of a statement that is done to the first
// queued member, or frees it.
func (lc *lookupCombiner) handOver() {
	lc.mu.Lock()
	if len(lc.pending) == 0 {
		lc.running--
		lc.mu.Unlock()
		return
	}
	next := lc.pending[0]
	lc.pending = lc.pending[1:]
	lc.mu.Unlock()
	next.done <- lookupOutcome{lead: true}
}

// lead reads first's codes with up to MaxCombinedLookups-1 queued
// members' as one statement, answers each other member and returns
// first's outcome (its caller hands the lane on when first is done).
func (lc *lookupCombiner) lead(ctx context.Context, c *ent.Client, first *lookupMember) lookupOutcome {
	batch := []*lookupMember{first}
	lc.mu.Lock()
	n := min(len(lc.pending), max(MaxCombinedLookups, 1)-1)
	batch = append(batch, lc.pending[:n]...)
	rest := copy(lc.pending, lc.pending[n:])
	clear(lc.pending[rest:])
	lc.pending = lc.pending[:rest]
	lc.mu.Unlock()

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
	for i := 1; i < len(batch); i++ {
		batch[i].done <- outcomes[i]
	}
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

// runCombinedLookup reads members' look-ups as one statement and returns
// each member's result, in order.
func runCombinedLookup(ctx context.Context, c *ent.Client, members []*lookupMember) ([]lookupResult, error) {
	ms, projects, codes, custs, nows := []int64{}, []string{}, []string{}, []*string{}, []string{}
	for i, m := range members {
		var cust *string
		if m.cust != nil {
			cust = &m.cust.value
		}
		now := m.now.UTC().Format(time.RFC3339Nano)
		for _, code := range m.codes {
			ms, projects, codes = append(ms, int64(i)), append(projects, m.project), append(codes, code)
			custs, nows = append(custs, cust), append(nows, now)
		}
	}
	if beforeCombinedLookup != nil {
		beforeCombinedLookup(ctx, len(members))
	}
	release, err := store.AdmitRedemption(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	query := combinedLookupQuery()
	if forceLookupFailure {
		query = "SELECT 1 / 0 WHERE $1::bigint[] IS NOT NULL AND $2::text[] IS NOT NULL AND $3::text[] IS NOT NULL " +
			"AND $4::text[] IS NOT NULL AND $5::timestamptz[] IS NOT NULL"
	}
	rows, err := c.QueryContext(ctx, query, pq.Array(ms), pq.Array(projects), pq.Array(codes),
		pq.Array(custs), pq.Array(nows))
	if err != nil {
		return nil, fmt.Errorf("combined look-up: %w", err)
	}
	defer func() { _ = rows.Close() }()
	results := make([]lookupResult, len(members))
	for rows.Next() {
		var m int64
		// Every row has the customer's columns (NULL for a member without
		// one), decoded each time: a few columns of a few rows.
		found, cst, err := scanLookedUp(c, taggedRows{rows: rows, m: &m}, true, nil, true)
		if err != nil {
			return nil, err
		}
		if m < 0 || int(m) >= len(members) {
			return nil, errors.New("combined look-up: a row of no member")
		}
		res := &results[m]
		if members[m].cust == nil {
			found.customerVersion = ""
		} else if !res.customerRead {
			res.customerRead, res.customer, res.customerVersion = true, cst, found.customerVersion
		}
		res.vouchers = append(res.vouchers, found)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("combined look-up: %w", err)
	}
	combinedLookups.Add(1)
	combinedLookupMembers.Add(int64(len(members)))
	return results, nil
}

// taggedRows scans a combined look-up's row: its member first, then the
// plain look-up's columns (with the customer's).
type taggedRows struct {
	rows interface{ Scan(...any) error }
	m    *int64
}

func (t taggedRows) Scan(dest ...any) error {
	return t.rows.Scan(append([]any{t.m}, dest...)...)
}

var combinedLookupText struct {
	once  sync.Once
	query string
}

// combinedLookupQuery is the combined look-up's text (see above); its
// arguments are the arrays of members, projects, codes, customers'
// source_ids (NULL for none) and nows, one element per (member, code).
func combinedLookupQuery() string {
	combinedLookupText.once.Do(func() {
		cols := func(alias string, names []string) string {
			out := make([]string, len(names))
			for i, n := range names {
				out[i] = alias + `."` + n + `"`
			}
			return strings.Join(out, ", ")
		}
		before, after, _ := strings.Cut(heldSQL, "?")
		held := before + "r.now" + after
		// The customer is read by a LATERAL sub-query whose "r.cust IS NOT
		// NULL" is a one-time filter: a member without a customer reads no
		// customer row at all (a plain LEFT JOIN would probe the customers
		// of the project for every row); LIMIT 1 keeps it from being
		// pulled up into a join (source_id is unique per project anyway).
		q := fmt.Sprintf(`SELECT r.m, %s, %s, NULL, EXISTS (SELECT 1 FROM %s w WHERE w.%s = v.%s AND w.%s), %s, `+
			`v.xmin::text, cu.cu_version, %s, %s `+
			`FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS r(m, project, code, cust, now) `+
			`JOIN %s v ON v.%s = r.project AND v.%s = r.code `+
			`LEFT JOIN %s c ON c.%s = v.%s AND c.%s = v.%s `+
			`LEFT JOIN LATERAL (SELECT %s, cu.xmin::text AS cu_version FROM %s cu `+
			`WHERE r.cust IS NOT NULL AND cu.%s = r.cust AND cu.%s = r.project LIMIT 1) cu ON true `+
			`ORDER BY r.m, v.%s`,
			cols("v", voucher.Columns), cols("c", campaignCheckColumns),
			webhook.Table, webhook.FieldProjectID, voucher.FieldProjectID, webhook.FieldActive,
			cols("cu", customer.Columns), held, rulesSQL,
			voucher.Table, voucher.FieldProjectID, voucher.FieldCode,
			campaign.Table, campaign.FieldID, voucher.FieldCampaignID, campaign.FieldProjectID, voucher.FieldProjectID,
			cols("cu", customer.Columns), customer.Table, customer.FieldSourceID, customer.FieldProjectID,
			voucher.FieldID)
		combinedLookupText.query = q
	})
	return combinedLookupText.query
}

// distinct is codes without repeats, in their first order (the plain
// look-up's IN list gives a voucher once however often it is named).
func distinct(codes []string) []string {
	seen := make(map[string]struct{}, len(codes))
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		if _, ok := seen[c]; !ok {
			seen[c] = struct{}{}
			out = append(out, c)
		}
	}
	return out
}

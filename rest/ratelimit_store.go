package rest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
)

// rateStore is the table the processes share their counts in. It is not
// an ent entity: nothing but the limiter reads it, and it holds only the
// current minute's counts.
type rateStore struct {
	db       *sql.DB
	postgres bool
	log      *slog.Logger
	ready    atomic.Bool
	swept    atomic.Int64 // the window whose older rows were deleted
	// slots bounds the reservations running at once (rateReserveSlots),
	// so the limiters never hold more of the pool's connections.
	slots chan struct{}
}

// rateReserveSlots is how many reservations one process runs at once, for
// all keys of both limiters together.
const rateReserveSlots = 4

// newRateStore is the shared table on db.
func newRateStore(db *sql.DB, postgres bool, log *slog.Logger) *rateStore {
	return &rateStore{db: db, postgres: postgres, log: log, slots: make(chan struct{}, rateReserveSlots)}
}

const rateTableDDL = `CREATE TABLE IF NOT EXISTS rate_limit_windows (
	project_id text NOT NULL,
	key_id text NOT NULL,
	window_start bigint NOT NULL,
	count bigint NOT NULL,
	PRIMARY KEY (key_id, window_start)
)`

// ensure creates the table if it does not exist yet.
func (s *rateStore) ensure(ctx context.Context) error {
	if s.ready.Load() {
		return nil
	}
	_, err := s.db.ExecContext(ctx, rateTableDDL)
	if err != nil && s.postgres {
		// Two processes creating the table at the same moment: one of them
		// fails on PostgreSQL's catalog; by now the table is there.
		_, err = s.db.ExecContext(ctx, rateTableDDL)
	}
	if err != nil {
		return fmt.Errorf("creating rate_limit_windows: %w", err)
	}
	s.ready.Store(true)
	return nil
}

// rateReservation asks for want more requests of a key in window,
// granted only within limit, after adding settle requests the process
// admitted without reserving.
type rateReservation struct {
	kind, project, key  string
	window              int64
	settle, want, limit int64
}

// rateGrant is the answer to a reservation.
type rateGrant struct {
	// settled of the requests admitted without reserving were added to
	// the shared count (all of them or, on failure, none).
	settled int64
	// granted requests may be admitted; count is the shared count after
	// the grant (every process's reservations).
	granted, count int64
	// exhausted: the shared count has reached the limit.
	exhausted bool
}

// reserve adds r's unreserved requests to the key's shared count, then
// reserves up to r.want more: the largest of want, want/2, …, 1 that
// keeps the count within r.limit, in one conditional upsert per try. The
// count can therefore never pass the limit by a reservation, whatever
// the number of processes; only settled requests (admitted while the
// table could not be reached) can take it past.
func (s *rateStore) reserve(ctx context.Context, r rateReservation) (g rateGrant, err error) {
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return g, fmt.Errorf("waiting for one of the %d reservations at once: %w", rateReserveSlots, ctx.Err())
	}
	if err := s.ensure(ctx); err != nil {
		return g, err
	}
	defer func() {
		if err != nil {
			s.ready.Store(false) // the table may be gone: create it again next time
		}
	}()
	id := r.kind + ":" + r.key
	if r.settle > 0 {
		q := s.upsert("")
		if err := s.db.QueryRowContext(ctx, q, r.project, id, r.window, r.settle).Scan(&g.count); err != nil {
			return g, fmt.Errorf("adding requests admitted without the shared table: %w", err)
		}
		g.settled = r.settle
	}
	within := " WHERE rate_limit_windows.count + excluded.count <= " + s.params(4, 1)
	for want := max(1, r.want); ; want = max(1, want/2) {
		err := s.db.QueryRowContext(ctx, s.upsert(within), r.project, id, r.window, want, r.limit).Scan(&g.count)
		switch {
		case err == nil:
			g.granted = want
			g.exhausted = g.count >= r.limit
			return g, nil
		case !errors.Is(err, sql.ErrNoRows):
			return g, fmt.Errorf("reserving requests: %w", err)
		case want == 1:
			// Not even one more fits: the count has reached the limit.
			g.count = max(g.count, r.limit)
			g.exhausted = true
			return g, nil
		}
	}
}

// upsert adds its fourth parameter to a key's count of a window, creating
// the row if needed, where the condition holds (no condition: always), and
// returns the new count; no row when the condition fails. Two processes
// creating the same row at once are one insert and one update (ON
// CONFLICT on the primary key, on both databases).
func (s *rateStore) upsert(where string) string {
	return "INSERT INTO rate_limit_windows (project_id, key_id, window_start, count) VALUES (" + s.params(0, 4) + ")" +
		" ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count" +
		where + " RETURNING count"
}

// params returns n placeholders following the first `after` ones.
func (s *rateStore) params(after, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = "?"
		if s.postgres {
			ps[i] = "$" + strconv.Itoa(after+i+1)
		}
	}
	return strings.Join(ps, ", ")
}

// sweep deletes the counts of windows before window, once per window and
// process; a failure only leaves them for the next window's sweep.
func (s *rateStore) sweep(ctx context.Context, window int64) {
	last := s.swept.Load()
	if last >= window || !s.swept.CompareAndSwap(last, window) {
		return
	}
	q := "DELETE FROM rate_limit_windows WHERE window_start < " + s.params(0, 1)
	if _, err := s.db.ExecContext(ctx, q, window); err != nil {
		s.log.WarnContext(ctx, "rate limits: deleting old windows failed", "error", err.Error())
	}
}

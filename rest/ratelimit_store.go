package rest

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"slices"
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

// add adds each row's count to its key's count of window and returns the
// keys' counts after that.
func (s *rateStore) add(ctx context.Context, kind string, window int64, rows []rateRow) (map[string]int64, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	counts := make(map[string]int64, len(rows))
	prefix := kind + ":"
	for batch := range slices.Chunk(rows, rateFlushBatch) {
		var q strings.Builder
		q.WriteString("INSERT INTO rate_limit_windows (project_id, key_id, window_start, count) VALUES ")
		args := make([]any, 0, 4*len(batch))
		for i, r := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(" + s.params(len(args), 4) + ")")
			args = append(args, r.count.project, prefix+r.key, window, r.add)
		}
		q.WriteString(" ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count" +
			" RETURNING key_id, count")
		if err := s.scan(ctx, q.String(), args, prefix, counts); err != nil {
			s.ready.Store(false) // the table may be gone: create it again next time
			return nil, err
		}
	}
	return counts, nil
}

func (s *rateStore) scan(ctx context.Context, query string, args []any, prefix string, counts map[string]int64) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			key string
			n   int64
		)
		if err := rows.Scan(&key, &n); err != nil {
			return err
		}
		counts[strings.TrimPrefix(key, prefix)] = n
	}
	return rows.Err()
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

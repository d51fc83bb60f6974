package entdb

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"modernc.org/sqlite"
)

// openWriters opens a fresh SQLite file as Open does and returns its
// writers (with group limits that let a test decide when a group ends) and
// the pool, with a table t(v TEXT UNIQUE).
func openWriters(t *testing.T) (sqliteWriters, *sql.DB) {
	t.Helper()
	_, dsn, _ := sqliteDSN(filepath.Join(t.TempDir(), "w.db"))
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(cachingConnector{base: connector, local: true})
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec("CREATE TABLE t (v TEXT UNIQUE)"); err != nil {
		t.Fatal(err)
	}
	w := newSQLiteWriters(entsql.OpenDB(dialect.SQLite, db))
	w.g.maxAge = time.Minute
	return w, db
}

func insert(ctx context.Context, tx dialect.Tx, v string) error {
	return tx.Exec(ctx, "INSERT INTO t (v) VALUES (?)", []any{v}, nil)
}

func rowsOf(t *testing.T, db *sql.DB) map[string]bool {
	t.Helper()
	rows, err := db.Query("SELECT v FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]bool{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got[v] = true
	}
	return got
}

// beginWithRow begins a transaction of w and inserts v in it.
func beginWithRow(t *testing.T, w sqliteWriters, v string) dialect.Tx {
	t.Helper()
	ctx := context.Background()
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := insert(ctx, tx, v); err != nil {
		t.Fatal(err)
	}
	return tx
}

// releaseQueued commits first once len(errs) transactions wait behind
// it, waits for them (wg) and reports the errors they recorded.
func releaseQueued(t *testing.T, w sqliteWriters, first dialect.Tx, wg *sync.WaitGroup, errs []error) {
	t.Helper()
	waitForWaiters(t, w.g, int32(len(errs)))
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("member %d: %v", i, err)
		}
	}
}

// waitForWaiters waits until n goroutines wait for the writer turn.
func waitForWaiters(t *testing.T, g *writerGroups, n int32) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); g.waiting.Load() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d goroutines wait for the turn", g.waiting.Load(), n)
		}
	}
}

// Transactions that queue behind one another share one real transaction;
// each keeps or undoes only its own work, and a Commit returns once the
// work is visible to everyone.
func TestSQLiteGroupCommitKeepsEachMembersOwnOutcome(t *testing.T) {
	w, db := openWriters(t)
	ctx := context.Background()
	first := beginWithRow(t, w, "first")
	const n = 12
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			memberCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			tx, err := w.BeginTx(memberCtx, nil)
			if err != nil {
				errs[i] = err
				return
			}
			if i%4 == 3 {
				cancel() // a request that goes away: its work still runs, the group survives it
			}
			if err := insert(memberCtx, tx, fmt.Sprint("m", i)); err != nil {
				errs[i] = err
				_ = tx.Rollback()
				return
			}
			switch i % 4 {
			case 0: // a failing statement, then the member gives up
				if err := insert(ctx, tx, "first"); err == nil {
					errs[i] = fmt.Errorf("a duplicate was accepted")
				}
				errs[i] = tx.Rollback()
			case 1:
				errs[i] = tx.Rollback()
			default:
				if errs[i] = tx.Commit(); errs[i] == nil && !rowsOf(t, db)[fmt.Sprint("m", i)] {
					errs[i] = fmt.Errorf("committed m%d is not visible after Commit", i)
				}
			}
		}()
	}
	releaseQueued(t, w, first, &wg, errs)
	want := map[string]bool{"first": true}
	for i := range n {
		if i%4 >= 2 {
			want[fmt.Sprint("m", i)] = true
		}
	}
	got := rowsOf(t, db)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if c := w.g.commits.Load(); c != 1 {
		t.Errorf("%d real commits for %d members that queued together, want 1", c, n+1)
	}
}

// A group ends at its size limit: the next member starts another.
func TestSQLiteGroupCommitEndsAtItsSizeLimit(t *testing.T) {
	w, db := openWriters(t)
	w.g.maxMembers = 3
	ctx := context.Background()
	first, err := w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 7
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := w.BeginTx(ctx, nil)
			if err == nil {
				if err = insert(ctx, tx, fmt.Sprint(i)); err == nil {
					err = tx.Commit()
				}
			}
			errs[i] = err
		}()
	}
	releaseQueued(t, w, first, &wg, errs)
	if got := len(rowsOf(t, db)); got != n {
		t.Errorf("%d rows, want %d", got, n)
	}
	if c := w.g.commits.Load(); c != 3 { // 8 members, at most 3 a group
		t.Errorf("%d real commits, want 3", c)
	}
}

// When the real transaction breaks, no member that committed into it is
// told it succeeded, and nothing of the group is kept.
func TestSQLiteGroupCommitReportsABrokenGroupToEveryMember(t *testing.T) {
	w, db := openWriters(t)
	ctx := context.Background()
	first := beginWithRow(t, w, "first")
	breaker := make(chan error, 1)
	go func() {
		tx, err := w.BeginTx(ctx, nil)
		if err != nil {
			breaker <- err
			return
		}
		// What SQLite does on some errors (SQLITE_FULL, an interrupt):
		// the whole transaction is gone.
		if _, err := tx.(*memberTx).ExecContext(ctx, "ROLLBACK"); err != nil {
			breaker <- err
			return
		}
		breaker <- tx.Commit()
	}()
	waitForWaiters(t, w.g, 1)
	if err := first.Commit(); err == nil {
		t.Error("the first member's Commit succeeded though its group was rolled back")
	}
	if err := <-breaker; err == nil {
		t.Error("the breaking member's Commit succeeded")
	}
	if got := rowsOf(t, db); len(got) != 0 {
		t.Errorf("rows %v kept from a broken group", got)
	}
	// The next transaction starts a fresh group.
	tx := beginWithRow(t, w, "after")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if !rowsOf(t, db)["after"] {
		t.Error("a transaction after a broken group was lost")
	}
}

// A member that hands its group on to a waiter who then gives up is not
// left waiting: the group is committed after its age.
func TestSQLiteGroupCommitEndsAGroupNobodyJoined(t *testing.T) {
	w, db := openWriters(t)
	w.g.maxAge = 20 * time.Millisecond
	tx := beginWithRow(t, w, "alone")
	w.g.waiting.Add(1) // a waiter that will never take the turn
	done := make(chan error, 1)
	go func() { done <- tx.Commit() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Commit still waits for a group nobody joined")
	}
	w.g.waiting.Add(-1)
	if !rowsOf(t, db)["alone"] {
		t.Error("the committed row is not there")
	}
}

package entdb

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// sqliteWriterWait bounds how long a transaction waits for its turn: as
// long as SQLite's own busy_timeout, so a stuck writer fails a request the
// same way it did before.
const sqliteWriterWait = 10 * time.Second

// Group commit limits: a group transaction takes at most this many
// members, and no member joins a group older than sqliteGroupAge (a
// waiting member then commits it first).
const (
	sqliteGroupMembers = 16
	sqliteGroupAge     = 5 * time.Millisecond
)

// sqliteWriters runs the SQLite transactions of this process one at a
// time, in arrival order, with group commit.
//
// Every transaction is a writer (BEGIN IMMEDIATE), and SQLite admits one;
// left to SQLite, waiting writers poll its busy handler with growing
// sleeps, so under a burst some wait past busy_timeout and fail with
// "database is locked" while others keep winning. Queueing them here first
// hands the lock over in arrival order, at once. Other processes on the
// same file still meet SQLite's busy_timeout.
//
// Committing is the largest single cost of a small write transaction on
// SQLite (its pages are appended to the WAL). So a transaction here is a
// member of a group: a SAVEPOINT inside one real transaction. When a member
// commits (RELEASE) and others are waiting for their turn, the turn passes
// to the next one inside the same real transaction; the last member of the
// group (nobody waiting, or the group full or old) commits it for all.
// A member's Commit returns only when its group has committed, with the
// group's outcome, so a caller never sees success for work that is not
// durable. A member that rolls back undoes only its own work (ROLLBACK TO
// its savepoint). Its statements run detached from its context's
// cancellation: SQLite answers an interrupted write by rolling back the
// whole transaction, which would undo the other members too.
type sqliteWriters struct {
	*entsql.Driver
	g *writerGroups
}

// writerGroups is the turn and the open group of one database.
type writerGroups struct {
	maxMembers int           // sqliteGroupMembers (tests change them)
	maxAge     time.Duration // sqliteGroupAge
	turn       chan struct{} // held by the member running now (or a committer)
	waiting    atomic.Int32  // goroutines waiting for the turn
	open       *commitGroup  // the group transaction open now; read and written holding the turn
	commits    atomic.Int64  // real transactions committed (tests)
}

// commitGroup is one real transaction and the members it carries.
type commitGroup struct {
	tx      dialect.Tx
	opened  time.Time
	members int // members that joined, committed or not
	pending int // members that committed and wait for the outcome
	done    chan struct{}
	err     error // the outcome, set before done is closed
}

func newSQLiteWriters(d *entsql.Driver) sqliteWriters {
	return sqliteWriters{Driver: d, g: &writerGroups{
		maxMembers: sqliteGroupMembers, maxAge: sqliteGroupAge, turn: make(chan struct{}, 1)}}
}

var _ dialect.Driver = sqliteWriters{}

// Tx implements dialect.Driver.
func (d sqliteWriters) Tx(ctx context.Context) (dialect.Tx, error) {
	return d.BeginTx(ctx, nil)
}

// BeginTx waits for this process's writer turn, then joins the open group
// transaction or begins one.
func (d sqliteWriters) BeginTx(ctx context.Context, opts *entsql.TxOptions) (dialect.Tx, error) {
	g := d.g
	if err := g.take(ctx); err != nil {
		return nil, err
	}
	if g.open != nil && (g.open.members >= g.maxMembers || time.Since(g.open.opened) >= g.maxAge) {
		g.close()
	}
	if g.open == nil {
		// The real transaction outlives the request that opens it.
		tx, err := d.Driver.BeginTx(context.WithoutCancel(ctx), opts)
		if err != nil {
			<-g.turn
			return nil, err
		}
		g.open = &commitGroup{tx: tx, opened: time.Now(), done: make(chan struct{})}
	}
	grp := g.open
	if err := grp.tx.Exec(context.WithoutCancel(ctx), "SAVEPOINT member", []any{}, nil); err != nil {
		g.fail(fmt.Errorf("opening a savepoint: %w", err))
		<-g.turn
		return nil, err
	}
	grp.members++
	return &memberTx{g: g, grp: grp}, nil
}

// ErrDatabaseBusy is the error of a write that waited its whole bound for
// SQLite's one writer (answered 503 service_unavailable, retry).
var ErrDatabaseBusy = errors.New("database is locked")

// take waits for the turn, at most sqliteWriterWait.
func (g *writerGroups) take(ctx context.Context) error {
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	wait, cancel := context.WithTimeout(ctx, sqliteWriterWait)
	defer cancel()
	select {
	case g.turn <- struct{}{}:
		return nil
	case <-wait.Done():
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("waiting %s for the SQLite writer: %w", sqliteWriterWait, ErrDatabaseBusy)
	}
}

// close ends the open group: commits it when a member committed, else
// rolls it back, and tells its members the outcome. The caller holds the
// turn.
func (g *writerGroups) close() {
	grp := g.open
	g.open = nil
	if grp.pending == 0 {
		grp.err = grp.tx.Rollback()
	} else {
		grp.err = grp.tx.Commit()
		g.commits.Add(1)
	}
	if grp.err != nil {
		grp.err = fmt.Errorf("committing the group transaction: %w", grp.err)
	}
	close(grp.done)
}

// fail ends the open group with err after SQLite broke its transaction:
// nothing of it is kept, and its members that committed get err.
func (g *writerGroups) fail(err error) {
	grp := g.open
	g.open = nil
	_ = grp.tx.Rollback()
	grp.err = err
	close(grp.done)
}

// finish gives the turn up after a member ended: to the next waiting
// member inside the same group while the group may grow, otherwise after
// ending the group. The caller holds the turn.
func (g *writerGroups) finish(grp *commitGroup) {
	if g.open == grp && g.waiting.Load() > 0 && grp.members < g.maxMembers &&
		time.Since(grp.opened) < g.maxAge {
		// Should the waiter give up, nobody would end the group: end it
		// after its age unless a member holds the turn then (a member
		// ends an old group itself).
		time.AfterFunc(g.maxAge, func() { g.closeIfIdle(grp) })
		<-g.turn
		return
	}
	if g.open == grp {
		g.close()
	}
	<-g.turn
}

// closeIfIdle ends grp if it is still open and nobody holds the turn.
func (g *writerGroups) closeIfIdle(grp *commitGroup) {
	select {
	case g.turn <- struct{}{}:
		if g.open == grp {
			g.close()
		}
		<-g.turn
	default:
	}
}

// memberTx is one transaction of the caller: a savepoint in a group.
type memberTx struct {
	g    *writerGroups
	grp  *commitGroup
	done bool
}

var _ dialect.Tx = (*memberTx)(nil)

// Exec implements dialect.ExecQuerier.
func (t *memberTx) Exec(ctx context.Context, query string, args, v any) error {
	if t.done {
		return stdsql.ErrTxDone
	}
	return t.grp.tx.Exec(context.WithoutCancel(ctx), query, args, v)
}

// Query implements dialect.ExecQuerier.
func (t *memberTx) Query(ctx context.Context, query string, args, v any) error {
	if t.done {
		return stdsql.ErrTxDone
	}
	return t.grp.tx.Query(context.WithoutCancel(ctx), query, args, v)
}

// Commit keeps the member's work in its group and waits for the group's
// outcome.
func (t *memberTx) Commit() error {
	if t.done {
		return stdsql.ErrTxDone
	}
	t.done = true
	if err := t.grp.tx.Exec(context.Background(), "RELEASE member", []any{}, nil); err != nil {
		// SQLite refuses RELEASE only when the transaction is gone.
		t.g.fail(fmt.Errorf("releasing a savepoint: %w", err))
		<-t.g.turn
		return err
	}
	t.grp.pending++
	t.g.finish(t.grp)
	<-t.grp.done
	return t.grp.err
}

// Rollback undoes the member's work only; the group goes on.
func (t *memberTx) Rollback() error {
	if t.done {
		return stdsql.ErrTxDone
	}
	t.done = true
	ctx := context.Background()
	err := t.grp.tx.Exec(ctx, "ROLLBACK TO member", []any{}, nil)
	if err == nil {
		err = t.grp.tx.Exec(ctx, "RELEASE member", []any{}, nil)
	}
	if err != nil {
		err = fmt.Errorf("rolling back a savepoint: %w", err)
		t.g.fail(err)
		<-t.g.turn
		return err
	}
	t.g.finish(t.grp)
	return nil
}

// ExecContext serves raw statements inside the transaction.
func (t *memberTx) ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error) {
	ex, ok := t.grp.tx.(interface {
		ExecContext(context.Context, string, ...any) (stdsql.Result, error)
	})
	if !ok || t.done {
		return nil, stdsql.ErrTxDone
	}
	return ex.ExecContext(context.WithoutCancel(ctx), query, args...)
}

// QueryContext serves raw queries inside the transaction.
func (t *memberTx) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	q, ok := t.grp.tx.(interface {
		QueryContext(context.Context, string, ...any) (*stdsql.Rows, error)
	})
	if !ok || t.done {
		return nil, stdsql.ErrTxDone
	}
	return q.QueryContext(context.WithoutCancel(ctx), query, args...)
}

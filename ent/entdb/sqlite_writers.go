package entdb

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// sqliteWriterWait bounds how long a transaction waits for its turn: as
// long as SQLite's own busy_timeout, so a stuck writer fails a request the
// same way it did before.
const sqliteWriterWait = 10 * time.Second

// sqliteWriters runs one SQLite transaction of this process at a time.
// Every transaction is a writer (BEGIN IMMEDIATE), and SQLite admits one
// writer; left to SQLite, waiting writers poll its busy handler with
// growing sleeps, so under a burst some wait past busy_timeout and fail
// with "database is locked" while others keep winning. Queueing them here
// first hands the lock over in arrival order, at once. Other processes on
// the same file still meet SQLite's busy_timeout.
type sqliteWriters struct {
	*entsql.Driver
	turn chan struct{}
}

func newSQLiteWriters(d *entsql.Driver) sqliteWriters {
	return sqliteWriters{Driver: d, turn: make(chan struct{}, 1)}
}

var _ dialect.Driver = sqliteWriters{}

// Tx implements dialect.Driver.
func (d sqliteWriters) Tx(ctx context.Context) (dialect.Tx, error) {
	return d.BeginTx(ctx, nil)
}

// BeginTx waits for this process's writer turn, then begins.
func (d sqliteWriters) BeginTx(ctx context.Context, opts *entsql.TxOptions) (dialect.Tx, error) {
	wait, cancel := context.WithTimeout(ctx, sqliteWriterWait)
	defer cancel()
	select {
	case d.turn <- struct{}{}:
	case <-wait.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("waiting %s for the SQLite writer: database is locked", sqliteWriterWait)
	}
	tx, err := d.Driver.BeginTx(ctx, opts)
	if err != nil {
		<-d.turn
		return nil, err
	}
	return &sqliteTurnTx{Tx: tx, turn: d.turn}, nil
}

// sqliteTurnTx gives the writer turn back when the transaction ends.
type sqliteTurnTx struct {
	dialect.Tx
	turn chan struct{}
	done bool
}

// Commit implements dialect.Tx.
func (t *sqliteTurnTx) Commit() error {
	defer t.release()
	return t.Tx.Commit()
}

// Rollback implements dialect.Tx.
func (t *sqliteTurnTx) Rollback() error {
	defer t.release()
	return t.Tx.Rollback()
}

func (t *sqliteTurnTx) release() {
	if !t.done {
		t.done = true
		<-t.turn
	}
}

// ExecContext serves raw statements inside the transaction.
func (t *sqliteTurnTx) ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error) {
	ex, ok := t.Tx.(interface {
		ExecContext(context.Context, string, ...any) (stdsql.Result, error)
	})
	if !ok {
		return nil, stdsql.ErrConnDone
	}
	return ex.ExecContext(ctx, query, args...)
}

// QueryContext serves raw queries inside the transaction.
func (t *sqliteTurnTx) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	q, ok := t.Tx.(interface {
		QueryContext(context.Context, string, ...any) (*stdsql.Rows, error)
	})
	if !ok {
		return nil, stdsql.ErrConnDone
	}
	return q.QueryContext(ctx, query, args...)
}

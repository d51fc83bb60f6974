package entdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"modernc.org/sqlite"
)

// countingConnector counts what the driver underneath the cache is asked
// to do: statements prepared and closed, and queries run unprepared.
type countingConnector struct {
	driver.Connector
	prepared, closed, unprepared atomic.Int64
}

func (c *countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{baseConn: conn.(baseConn), n: c}, nil
}

type countingConn struct {
	baseConn
	n *countingConnector
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.baseConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.n.prepared.Add(1)
	return countingStmt{st.(stmtContext), c.n}, nil
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.n.unprepared.Add(1)
	return c.baseConn.QueryContext(ctx, query, args)
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.n.unprepared.Add(1)
	return c.baseConn.ExecContext(ctx, query, args)
}

type stmtContext interface {
	driver.Stmt
	driver.StmtQueryContext
	driver.StmtExecContext
}

type countingStmt struct {
	stmtContext
	n *countingConnector
}

func (s countingStmt) Close() error {
	s.n.closed.Add(1)
	return s.stmtContext.Close()
}

// openCountingSQLite opens a SQLite database the way Open does, with the
// driver's work counted, on one connection.
func openCountingSQLite(t *testing.T) (*sql.DB, *countingConnector) {
	t.Helper()
	_, dsn, _ := sqliteDSN(filepath.Join(t.TempDir(), "cache.db"))
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		t.Fatal(err)
	}
	counting := &countingConnector{Connector: base}
	db := sql.OpenDB(cachingConnector{base: counting, local: true})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := db.Exec("INSERT INTO t (id, name) VALUES (?, ?)", i, fmt.Sprint("n", i)); err != nil {
			t.Fatal(err)
		}
	}
	return db, counting
}

// TestSQLiteStatementsArePreparedOnce: on SQLite a statement is prepared
// on first use and reused by its connection, in and out of transactions,
// for queries and writes alike; a broken statement still reports its error.
func TestSQLiteStatementsArePreparedOnce(t *testing.T) {
	db, n := openCountingSQLite(t)
	before := n.prepared.Load()
	for i := range 5 {
		var name string
		if err := db.QueryRow("SELECT name FROM t WHERE id = ?", i%3).Scan(&name); err != nil || name != fmt.Sprint("n", i%3) {
			t.Fatalf("query %d: %q %v", i, name, err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var name string
	if err := tx.QueryRow("SELECT name FROM t WHERE id = ?", 1).Scan(&name); err != nil || name != "n1" {
		t.Fatalf("query in a transaction: %q %v", name, err)
	}
	for i := range 3 {
		if _, err := tx.Exec("UPDATE t SET name = ? WHERE id = ?", fmt.Sprint("m", i), i); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT name FROM t WHERE id = ?", 2).Scan(&name); err != nil || name != "n2" {
		t.Fatalf("after the rollback: %q %v", name, err)
	}
	if got := n.prepared.Load() - before; got != 2 {
		t.Errorf("%d statements prepared for 7 runs of one query and 3 of one update, want 2", got)
	}
	if got := n.unprepared.Load(); got != 0 {
		t.Errorf("%d statements ran unprepared, want 0", got)
	}
	if _, err := db.Exec("INSERT INTO no_such_table VALUES (?)", 1); err == nil {
		t.Error("an insert into a missing table succeeded")
	}
}

// TestSQLiteStatementWithOpenRowsIsNotShared: a query run again while the
// rows of its first run are still being read (same connection, as in a
// transaction) gets a statement of its own, so neither result is cut short.
func TestSQLiteStatementWithOpenRowsIsNotShared(t *testing.T) {
	db, _ := openCountingSQLite(t)
	const q = "SELECT id, name FROM t WHERE id >= ? ORDER BY id"
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	outer, err := tx.Query(q, 0)
	if err != nil {
		t.Fatal(err)
	}
	var outerIDs, innerCount []int
	for outer.Next() {
		var id int
		var name string
		if err := outer.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		outerIDs = append(outerIDs, id)
		// tx holds the one connection: the inner query must not reset the
		// statement the outer rows are stepping. Read the inner rows fully
		// first, then close them, before stepping the outer ones again.
		inner, err := tx.Query(q, id)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for inner.Next() {
			count++
		}
		if err := inner.Close(); err != nil {
			t.Fatal(err)
		}
		innerCount = append(innerCount, count)
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(outerIDs, innerCount) != "[0 1 2] [3 2 1]" {
		t.Errorf("outer ids %v, inner counts %v; want [0 1 2] [3 2 1]", outerIDs, innerCount)
	}
}

// TestSQLiteStatementCacheIsBounded: a connection keeps at most
// maxStatementsPerConn statements (the least recently used make room, and
// are finalized), and finalizes the rest when it closes.
func TestSQLiteStatementCacheIsBounded(t *testing.T) {
	db, n := openCountingSQLite(t)
	distinct := maxStatementsPerConn + 20
	for i := range distinct {
		var got int
		if err := db.QueryRow(fmt.Sprintf("SELECT ? + %d", i), 1).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("query %d: %d %v", i, got, err)
		}
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var cached int
	if err := conn.Raw(func(dc any) error { cached = len(dc.(*cachingConn).stmts); return nil }); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	if cached != maxStatementsPerConn {
		t.Errorf("%d statements cached after %d distinct queries, want %d", cached, distinct, maxStatementsPerConn)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if p, c := n.prepared.Load(), n.closed.Load(); p != c {
		t.Errorf("%d statements prepared, %d finalized once the connection closed", p, c)
	}
}

// TestOpenCachesSQLiteStatements: the database Open returns keeps ent's
// statements prepared on SQLite.
func TestOpenCachesSQLiteStatements(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "open.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = "SELECT count(*) FROM projects WHERE name = ?"
	for range 2 {
		var n int
		if err := conn.QueryRowContext(ctx, q, "x").Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	err = conn.Raw(func(dc any) error {
		cc, ok := dc.(*cachingConn)
		if !ok {
			return fmt.Errorf("connection %T has no statement cache", dc)
		}
		if _, ok := cc.stmts[q]; !ok {
			return fmt.Errorf("the query run twice is not cached")
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// TestSQLiteBulkStatementsAreNotCached: a statement with more than
// maxCachedArgs parameters runs unprepared and stays out of the cache.
func TestSQLiteBulkStatementsAreNotCached(t *testing.T) {
	db, n := openCountingSQLite(t)
	q := "SELECT 1 WHERE ? IN (" + strings.Repeat("?, ", maxCachedArgs) + "?)"
	args := make([]any, maxCachedArgs+2)
	for i := range args {
		args[i] = i
	}
	args[0] = 5 // in the list
	before, unprepared := n.prepared.Load(), n.unprepared.Load()
	for range 2 {
		var one int
		if err := db.QueryRow(q, args...).Scan(&one); err != nil || one != 1 {
			t.Fatalf("bulk query: %d %v", one, err)
		}
	}
	if p, u := n.prepared.Load()-before, n.unprepared.Load()-unprepared; p != 0 || u != 2 {
		t.Errorf("2 runs of a %d-parameter query: %d prepared for the cache, %d unprepared; want 0 and 2", len(args), p, u)
	}
}

package entdb

import (
	"container/list"
	"context"
	"database/sql/driver"
	"sync"
)

// maxStatementsPerConn bounds each connection's statement cache. On
// PostgreSQL, queries beyond it (ent's IN lists of varying length, mostly)
// run unprepared; on SQLite the least recently used statement makes room.
const maxStatementsPerConn = 500

// maxCachedArgs: statements with more parameters (bulk inserts, long IN
// lists) are one-offs whose text varies with their size, and on SQLite the
// prepared form of a bulk insert is large: they run unprepared.
const maxCachedArgs = 256

// cachingConnector wraps a driver's connector so that every connection
// keeps its statements prepared: ent runs its queries through the
// connection's QueryContext and ExecContext, which prepare, run and discard
// a statement each time; here a statement is parsed and planned once per
// connection and afterwards only bound and run. The cache lives in the
// physical connection, so preparing never needs a second connection from
// the pool (a *sql.DB-level cache deadlocks when every pooled connection is
// inside a transaction), and statements work the same inside and outside
// transactions.
type cachingConnector struct {
	base driver.Connector
	// local: the statements are the driver's own handles (SQLite): rows
	// step the statement they came from, so a statement with open rows is
	// not lent out again; the least recently used one is finalized when the
	// cache is full; and all are finalized when the connection closes.
	// Otherwise (PostgreSQL) statements live in the server's session, one
	// round trip to prepare and to close: only parameterised statements are
	// cached, none is evicted, and they end with the session.
	local bool
	// trace adds a span per statement (tracing.go; Options.Trace).
	trace bool
}

// Connect implements driver.Connector.
func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	bc, ok := conn.(baseConn)
	if !ok {
		return conn, nil // not a driver we know: no cache
	}
	cc := &cachingConn{baseConn: bc, local: c.local, stmts: map[string]*list.Element{}}
	if c.trace {
		system := "postgresql"
		if c.local {
			system = "sqlite"
		}
		return &tracedConn{cachingConn: cc, system: system}, nil
	}
	return cc, nil
}

// Driver implements driver.Connector.
func (c cachingConnector) Driver() driver.Driver { return c.base.Driver() }

// baseConn is what a connection must implement to be cached (lib/pq's and
// modernc's do); the optional interfaces database/sql looks for are
// forwarded when the connection has them.
type baseConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.QueryerContext
	driver.ExecerContext
}

// cachingConn is a connection with its statement cache. database/sql
// calls a connection from one goroutine at a time, but rows may be closed
// from another (a cancelled context), so the cache has a lock.
type cachingConn struct {
	baseConn
	local bool

	mu    sync.Mutex
	stmts map[string]*list.Element // of *cachedStmt
	lru   list.List                // most recently used first
}

type cachedStmt struct {
	query string
	stmt  driver.Stmt
	busy  bool // rows of it are open (local statements only)
}

// acquire returns the cached statement of query, preparing it if needed,
// or nil to run the query unprepared. A local statement is marked busy;
// the caller releases it.
func (c *cachingConn) acquire(ctx context.Context, query string) *cachedStmt {
	c.mu.Lock()
	if e, ok := c.stmts[query]; ok {
		cs := e.Value.(*cachedStmt)
		if cs.busy {
			c.mu.Unlock()
			return nil // its rows are still being read: run this one apart
		}
		c.lru.MoveToFront(e)
		cs.busy = c.local
		c.mu.Unlock()
		return cs
	}
	var evicted driver.Stmt
	if len(c.stmts) >= maxStatementsPerConn {
		if !c.local {
			c.mu.Unlock()
			return nil
		}
		e := c.lru.Back()
		for e != nil && e.Value.(*cachedStmt).busy {
			e = e.Prev()
		}
		if e == nil {
			c.mu.Unlock()
			return nil
		}
		cs := c.lru.Remove(e).(*cachedStmt)
		delete(c.stmts, cs.query)
		evicted = cs.stmt
	}
	c.mu.Unlock()
	if evicted != nil {
		_ = evicted.Close()
	}
	st, err := c.baseConn.PrepareContext(ctx, query)
	if err != nil {
		return nil // the unprepared run reports the error
	}
	cs := &cachedStmt{query: query, stmt: st, busy: c.local}
	c.mu.Lock()
	c.stmts[query] = c.lru.PushFront(cs)
	c.mu.Unlock()
	return cs
}

// release ends a use of a local statement.
func (c *cachingConn) release(cs *cachedStmt) {
	if c.local {
		c.mu.Lock()
		cs.busy = false
		c.mu.Unlock()
	}
}

// cacheable reports whether query is worth a cache entry.
func (c *cachingConn) cacheable(args []driver.NamedValue) bool {
	if len(args) > maxCachedArgs {
		return false
	}
	// lib/pq runs a query without arguments in one round trip (the simple
	// protocol); preparing it would add one.
	return c.local || len(args) > 0
}

// QueryContext implements driver.QueryerContext.
func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.cacheable(args) {
		if cs := c.acquire(ctx, query); cs != nil {
			if st, ok := cs.stmt.(driver.StmtQueryContext); ok {
				rows, err := st.QueryContext(ctx, args)
				if err != nil || !c.local {
					c.release(cs)
					return rows, err
				}
				return &cachedRows{Rows: rows, release: func() { c.release(cs) }}, nil
			}
			c.release(cs)
		}
	}
	return c.baseConn.QueryContext(ctx, query, args)
}

// ExecContext implements driver.ExecerContext.
func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.cacheable(args) {
		if cs := c.acquire(ctx, query); cs != nil {
			defer c.release(cs)
			if st, ok := cs.stmt.(driver.StmtExecContext); ok {
				return st.ExecContext(ctx, args)
			}
		}
	}
	return c.baseConn.ExecContext(ctx, query, args)
}

// Close implements driver.Conn: local statements are finalized first.
func (c *cachingConn) Close() error {
	if c.local {
		c.mu.Lock()
		stmts := c.stmts
		c.stmts = map[string]*list.Element{}
		c.lru.Init()
		c.mu.Unlock()
		for _, e := range stmts {
			_ = e.Value.(*cachedStmt).stmt.Close()
		}
	}
	return c.baseConn.Close()
}

// Ping implements driver.Pinger.
func (c *cachingConn) Ping(ctx context.Context) error {
	if p, ok := c.baseConn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

// ResetSession implements driver.SessionResetter.
func (c *cachingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.baseConn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

// IsValid implements driver.Validator.
func (c *cachingConn) IsValid() bool {
	if v, ok := c.baseConn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// CheckNamedValue implements driver.NamedValueChecker (driver.ErrSkip
// leaves the argument to database/sql's default conversion).
func (c *cachingConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.baseConn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

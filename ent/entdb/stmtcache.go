package entdb

import (
	"context"
	"database/sql/driver"
)

// maxStatementsPerConn bounds each connection's statement cache; queries
// beyond it (ent's IN lists of varying length, mostly) run unprepared.
const maxStatementsPerConn = 500

// cachingConnector wraps lib/pq's connector so that every connection keeps
// its parameterised statements prepared: a statement is parsed and planned
// once per connection and afterwards executes in one round trip (bind +
// execute). The cache lives in the physical connection, so preparing never
// needs a second connection from the pool (a *sql.DB-level cache deadlocks
// when every pooled connection is inside a transaction).
type cachingConnector struct{ base driver.Connector }

// Connect implements driver.Connector.
func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc, ok := conn.(pqConn)
	if !ok {
		return conn, nil // not the driver we know: no cache
	}
	return &cachingConn{pqConn: pc, stmts: map[string]driver.Stmt{}}, nil
}

// Driver implements driver.Connector.
func (c cachingConnector) Driver() driver.Driver { return c.base.Driver() }

// pqConn is what lib/pq's connection implements and database/sql uses.
type pqConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
	driver.NamedValueChecker
}

// cachingConn is a connection with its statement cache. database/sql uses
// a connection from one goroutine at a time, so the map needs no lock.
type cachingConn struct {
	pqConn
	stmts map[string]driver.Stmt
}

// stmt returns the prepared statement of query, or nil to run it unprepared.
func (c *cachingConn) stmt(ctx context.Context, query string) driver.Stmt {
	if st, ok := c.stmts[query]; ok {
		return st
	}
	if len(c.stmts) >= maxStatementsPerConn {
		return nil
	}
	st, err := c.pqConn.PrepareContext(ctx, query)
	if err != nil {
		return nil // the unprepared run reports the error
	}
	c.stmts[query] = st
	return st
}

// QueryContext implements driver.QueryerContext.
func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if len(args) > 0 {
		if st, ok := c.stmt(ctx, query).(driver.StmtQueryContext); ok {
			return st.QueryContext(ctx, args)
		}
	}
	return c.pqConn.QueryContext(ctx, query, args)
}

// ExecContext implements driver.ExecerContext.
func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if len(args) > 0 {
		if st, ok := c.stmt(ctx, query).(driver.StmtExecContext); ok {
			return st.ExecContext(ctx, args)
		}
	}
	return c.pqConn.ExecContext(ctx, query, args)
}

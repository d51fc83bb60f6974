package entdb

import (
	"context"
	"net"
	"time"
)

// deadlineDialer dials PostgreSQL connections whose every read and write
// must make progress within a bound. lib/pq cancels a statement whose
// context ends by asking the server, over a second connection, to cancel
// it, and keeps reading the first: when the server or the network is
// frozen (SIGSTOP, a partition that drops packets) that read never returns
// and the request hangs with its pooled connection. With the bound, the
// read fails, lib/pq marks the connection broken, database/sql drops it,
// and the request answers 503 (graph/apperr.unavailable).
//
// The bound is the statement timeout plus frozenGrace: within it a live
// server always answers, if only to say it cancelled the statement.
type deadlineDialer struct {
	d     net.Dialer
	bound time.Duration
}

// Dial implements pq.Dialer.
func (d deadlineDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

// DialTimeout implements pq.Dialer.
func (d deadlineDialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.DialContext(ctx, network, address)
}

// DialContext implements pq.DialerContext.
func (d deadlineDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	conn, err := d.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return boundedConn{Conn: conn, bound: d.bound}, nil
}

// boundedConn sets a fresh deadline before each read and write.
type boundedConn struct {
	net.Conn
	bound time.Duration
}

func (c boundedConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.bound)); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

func (c boundedConn) Write(p []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(time.Now().Add(c.bound)); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

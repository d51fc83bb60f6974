package entdbtest

import (
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Proxy stands between a test's service and its PostgreSQL server, so the
// test can make the database look stopped (connections closed, new ones
// refused) or frozen (connections open, nothing forwarded: a paused server
// or a partition) and then bring it back.
type Proxy struct {
	t      testing.TB
	target string // network address of the server: "unix:/dir/.s.PGSQL.5432" or "tcp:host:port"
	addr   string // where the proxy listens (127.0.0.1:port), kept across Stop/Start

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	frozen chan struct{} // closed when not frozen; open while frozen
}

// NewProxy starts a proxy to the PostgreSQL database of dbURL (a URL of
// URL) and returns it with the URL that reaches the database through it.
// It stops at cleanup.
func NewProxy(t testing.TB, dbURL string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("proxy: parsing %s: %v", dbURL, err)
	}
	q := u.Query()
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	p := &Proxy{t: t, conns: map[net.Conn]bool{}, frozen: make(chan struct{})}
	close(p.frozen)
	if host := q.Get("host"); strings.HasPrefix(host, "/") {
		p.target = "unix:" + host + "/.s.PGSQL." + port
	} else {
		p.target = "tcp:" + u.Host
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Stop)
	q.Del("host")
	u.Host = p.addr
	u.RawQuery = q.Encode()
	return p, u.String()
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

// forward pipes c to a new server connection both ways.
func (p *Proxy) forward(c net.Conn) {
	network, address, _ := strings.Cut(p.target, ":")
	s, err := net.Dial(network, address)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[s] = true, true
	p.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				p.waitThawed()
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		_ = dst.Close()
		_ = src.Close()
		p.mu.Lock()
		delete(p.conns, dst)
		delete(p.conns, src)
		p.mu.Unlock()
	}
	go pipe(s, c)
	go pipe(c, s)
}

// waitThawed blocks while the proxy is frozen.
func (p *Proxy) waitThawed() {
	p.mu.Lock()
	ch := p.frozen
	p.mu.Unlock()
	<-ch
}

// Freeze stops forwarding: connections stay open and new ones are
// accepted, but no byte goes through until Thaw.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.frozen:
		p.frozen = make(chan struct{})
	default: // already frozen
	}
}

// Thaw forwards again what waited and what follows.
func (p *Proxy) Thaw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.frozen:
	default:
		close(p.frozen)
	}
}

// Stop makes the database look stopped: the listener closes (new
// connections are refused) and every open connection is closed.
func (p *Proxy) Stop() {
	p.Thaw()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
}

// Start brings a stopped database back on the same address.
func (p *Proxy) Start() {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("proxy: listening again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

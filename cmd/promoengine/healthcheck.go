package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// healthcheckCmd runs `healthcheck`: a GET of /readyz (or --path) on the
// server this environment configures, for images without a shell or curl
// (the Dockerfile's HEALTHCHECK, compose's health checks). It succeeds on a
// 200 answer and fails on anything else within --timeout.
func healthcheckCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr(getenv, "PROMO_ADDR", ":8080"),
		"the server's listen address; an empty or wildcard host is asked on loopback (env PROMO_ADDR)")
	path := fs.String("path", "/readyz", "what to ask: /readyz (database reachable, not draining) or /healthz (process up)")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the answer")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	url, err := healthURL(*addr, *path)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d %s", url, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(stdout, "%s %s\n", url, strings.TrimSpace(string(body)))
	return nil
}

// healthURL is the URL of path on the server listening on addr; a
// wildcard or empty host becomes loopback.
func healthURL(addr, path string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("healthcheck: address %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return "http://" + net.JoinHostPort(host, port) + path, nil
}

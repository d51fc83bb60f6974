package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// env serves m as the environment; PROMO_AUTO_MIGRATE defaults to true so
// the commands migrate the fresh test databases on PostgreSQL too.
func env(m map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := m[k]; ok || k != "PROMO_AUTO_MIGRATE" {
			return v
		}
		return "true"
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServer runs `promoengine serve` until the returned stop is called.
func startServer(t *testing.T, vars map[string]string) (addr string, stdout *syncBuffer, stop func() error) {
	t.Helper()
	addr = freeAddr(t)
	vars["PROMO_ADDR"] = addr
	ctx, cancel := context.WithCancel(context.Background())
	stdout = &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, env(vars), stdout, &syncBuffer{}) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("server exited: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return addr, stdout, func() error { cancel(); return <-done }
}

func TestServeBootstrapsWithExplicitKeysAndShutsDownCleanly(t *testing.T) {
	vars := map[string]string{
		"PROMO_DATABASE_URL":               entdbtest.URL(t),
		"PROMO_BOOTSTRAP_APP_ID":           "app-id-1",
		"PROMO_BOOTSTRAP_APP_TOKEN":        "app-token-1",
		"PROMO_BOOTSTRAP_MANAGEMENT_ID":    "mgmt-id-1",
		"PROMO_BOOTSTRAP_MANAGEMENT_TOKEN": "mgmt-token-1",
	}
	addr, stdout, stop := startServer(t, vars)
	if out := stdout.String(); !strings.Contains(out, "app-id-1") || !strings.Contains(out, "mgmt-id-1") {
		t.Errorf("first start did not print the credentials:\n%s", out)
	}
	if out := stdout.String(); strings.Contains(out, "app-token-1") || strings.Contains(out, "mgmt-token-1") {
		t.Errorf("first start echoed tokens set in the environment:\n%s", out)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/campaigns", strings.NewReader(`{"name":"boot"}`))
	req.Header.Set("X-App-Id", "app-id-1")
	req.Header.Set("X-App-Token", "app-token-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("bootstrap keys do not work: %v %v", err, resp)
	}
	resp.Body.Close()
	if err := stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	// A second start on the same database creates nothing and prints nothing.
	_, stdout, stop = startServer(t, vars)
	if out := stdout.String(); strings.Contains(out, "first start") {
		t.Errorf("second start bootstrapped again:\n%s", out)
	}
	if err := stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}

func TestServeDrainsInFlightRequests(t *testing.T) {
	vars := map[string]string{"PROMO_DATABASE_URL": entdbtest.URL(t),
		"PROMO_BOOTSTRAP_APP_ID": "a", "PROMO_BOOTSTRAP_APP_TOKEN": "t"}
	addr, _, stop := startServer(t, vars)
	// Open a connection and start a request whose body arrives late: the
	// server must finish it after the shutdown signal.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"name":"late"}`
	fmt.Fprintf(conn, "POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nX-App-Id: a\r\nX-App-Token: t\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	time.Sleep(100 * time.Millisecond)
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	time.Sleep(100 * time.Millisecond)
	fmt.Fprint(conn, body)
	buf := make([]byte, 4096)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, _ := conn.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 200") {
		t.Errorf("in-flight request was not completed: %q", buf[:n])
	}
	if err := <-stopped; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

func TestProjectCreatePrintsWorkingCredentials(t *testing.T) {
	url := entdbtest.URL(t)
	var out, errOut syncBuffer
	if err := run(context.Background(), []string{"project", "create", "--name", "Shop", "--database-url", url},
		env(nil), &out, &errOut); err != nil {
		t.Fatalf("project create: %v\n%s", err, errOut.String())
	}
	var creds struct{ ProjectID, AppID, AppToken string }
	if err := json.Unmarshal([]byte(out.String()), &struct {
		ProjectID *string `json:"project_id"`
		AppID     *string `json:"app_id"`
		AppToken  *string `json:"app_token"`
	}{&creds.ProjectID, &creds.AppID, &creds.AppToken}); err != nil {
		t.Fatalf("output is not JSON: %q", out.String())
	}
	if !strings.HasPrefix(creds.ProjectID, "proj_") || creds.AppID == "" || creds.AppToken == "" {
		t.Fatalf("credentials = %+v", creds)
	}
	// The printed key works against a server on the same database, and
	// stays within its own project.
	addr, _, stop := startServer(t, map[string]string{"PROMO_DATABASE_URL": url})
	defer stop()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/graphql?query=%7Bcampaigns%7BtotalCount%7D%7D", nil)
	req.Header.Set("X-App-Id", creds.AppID)
	req.Header.Set("X-App-Token", creds.AppToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("new project key: %v %v", err, resp)
	}
	resp.Body.Close()
}

func TestCommandLine(t *testing.T) {
	var out, errOut syncBuffer
	if err := run(context.Background(), []string{"help"}, env(nil), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PROMO_ADDR", "PROMO_DATABASE_URL", "PROMO_BOOTSTRAP_APP_TOKEN", "project create"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %s", want)
		}
	}
	if err := run(context.Background(), []string{"serve", "--help"}, env(nil), &out, &errOut); err != nil {
		t.Errorf("serve --help: %v", err)
	}
	if !strings.Contains(errOut.String(), "-database-url") || !strings.Contains(errOut.String(), "-addr") {
		t.Errorf("serve --help lacks flags:\n%s", errOut.String())
	}
	for _, flag := range []string{"-db-max-open", "-db-max-idle", "-db-conn-max-idle-time", "-db-conn-max-lifetime",
		"-db-statement-timeout", "-db-lock-timeout", "-request-timeout"} {
		if !strings.Contains(errOut.String(), flag) {
			t.Errorf("serve --help lacks %s", flag)
		}
	}
	if err := run(context.Background(), []string{"frobnicate"}, env(nil), &out, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("unknown command: %v", err)
	}
	if err := run(context.Background(), []string{"project", "create"}, env(nil), &out, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("project create without --name: %v", err)
	}
	for _, key := range []string{"PROMO_WORKERS", "PROMO_DB_CONCURRENCY", "PROMO_SHUTDOWN_DELAY", "PROMO_DB_MAX_OPEN",
		"PROMO_DB_CONN_MAX_IDLE_TIME", "PROMO_DB_STATEMENT_TIMEOUT", "PROMO_DB_LOCK_TIMEOUT", "PROMO_REQUEST_TIMEOUT"} {
		err := run(context.Background(), []string{"serve"}, env(map[string]string{key: "four"}), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("serve with %s=four: %v, want an error naming the variable", key, err)
		}
	}
}

func TestOperatorCommands(t *testing.T) {
	url := entdbtest.URL(t)
	cli := func(args ...string) (map[string]any, error) {
		var out, errOut syncBuffer
		err := run(context.Background(), append(args, "--database-url", url), env(nil), &out, &errOut)
		if err != nil {
			return nil, fmt.Errorf("%v: %s", err, errOut.String())
		}
		var m map[string]any
		if out.String() != "" {
			if err := json.Unmarshal([]byte(out.String()), &m); err != nil {
				return nil, fmt.Errorf("output is not a JSON object: %q", out.String())
			}
		}
		return m, nil
	}
	must := func(args ...string) map[string]any {
		t.Helper()
		m, err := cli(args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return m
	}
	var out, errOut syncBuffer
	if err := run(context.Background(), []string{"project", "create", "--name", "Ops", "--database-url", url}, env(nil), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var proj struct {
		ProjectID string `json:"project_id"`
	}
	_ = json.Unmarshal([]byte(out.String()), &proj)
	p := proj.ProjectID

	if f := must("project", "features", "--project", p, "--disable", "branding"); fmt.Sprint(f["features"]) != "[users_management]" {
		t.Errorf("features after disable: %v", f)
	}
	if f := must("project", "features", "--project", p, "--enable", "branding"); fmt.Sprint(f["features"]) != "[branding users_management]" {
		t.Errorf("features after enable: %v", f)
	}
	if _, err := cli("project", "features", "--project", p, "--enable", "teleport"); err == nil {
		t.Errorf("unknown feature accepted")
	}
	key := must("key", "create", "--project", p, "--name", "pos", "--allowed-ips", "10.0.0.0/8, 127.0.0.1")
	id := key["app_id"].(string)
	if key["app_token"] == "" || key["status"] != "ACTIVE" || fmt.Sprint(key["allowed_ips"]) != "[10.0.0.0/8 127.0.0.1]" {
		t.Errorf("key create: %v", key)
	}
	if k := must("key", "block", "--project", p, "--app-id", id); k["status"] != "BLOCKED" {
		t.Errorf("key block: %v", k)
	}
	if k := must("key", "unblock", "--project", p, "--app-id", id); k["status"] != "ACTIVE" {
		t.Errorf("key unblock: %v", k)
	}
	if k := must("key", "regenerate", "--project", p, "--app-id", id); k["app_id"] != id || k["app_token"] == key["app_token"] {
		t.Errorf("key regenerate: %v", k)
	}
	if k := must("key", "allow-ips", "--project", p, "--app-id", id, "--allowed-ips", ""); fmt.Sprint(k["allowed_ips"]) != "[]" {
		t.Errorf("key allow-ips: %v", k)
	}
	must("key", "delete", "--project", p, "--app-id", id)
	if _, err := cli("key", "block", "--project", p, "--app-id", id); err == nil || !strings.Contains(err.Error(), "Cannot find api_key") {
		t.Errorf("block deleted key: %v", err)
	}
	if u := must("user", "add", "--project", p, "--email", "ann@example.com", "--role", "admin", "--first-name", "Ann"); u["role"] != "ADMIN" {
		t.Errorf("user add: %v", u)
	}
	if _, err := cli("user", "add", "--project", p, "--email", "nope", "--role", "ADMIN"); err == nil {
		t.Errorf("invalid e-mail accepted")
	}
	must("user", "remove", "--project", p, "--user", "ann@example.com")
	if _, err := cli("key", "create", "--project", "proj_nothere"); err == nil || !strings.Contains(err.Error(), "Cannot find project") {
		t.Errorf("unknown project: %v", err)
	}
	if _, err := cli("key", "create"); !errors.Is(err, errUsage) && (err == nil || !strings.Contains(err.Error(), "usage")) {
		t.Errorf("missing --project: %v", err)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var out, errOut syncBuffer
		if err := run(context.Background(), args, env(nil), &out, &errOut); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		line := out.String()
		if !strings.HasPrefix(line, "promoengine ") || !strings.Contains(line, " rev ") ||
			!strings.HasSuffix(line, " "+runtime.Version()+"\n") || strings.Count(line, "\n") != 1 {
			t.Errorf("%v printed %q", args, line)
		}
	}
	var out, errOut syncBuffer
	_ = run(context.Background(), []string{"help"}, env(nil), &out, &errOut)
	if !strings.Contains(out.String(), "promoengine version") {
		t.Error("help lacks the version command")
	}

	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/promoengine/promoengine", Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "CGO_ENABLED", Value: "0"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "1609b9c0d5e1"}, {Key: "vcs.time", Value: "2026-11-23T13:00:00Z"}, {Key: "vcs.modified", Value: "false"}}}
	if got, want := versionLine(stamp{}, stamped, true), "promoengine v1.4.0 rev 1609b9c0d5e1 2026-11-23T13:00:00Z modified=false go1.26.8"; got != want {
		t.Errorf("versionLine = %q, want %q", got, want)
	}
	if got, want := versionLine(stamp{}, &debug.BuildInfo{GoVersion: "go1.26.8"}, true), "promoengine (devel) rev unknown go1.26.8"; got != want {
		t.Errorf("versionLine without VCS = %q, want %q", got, want)
	}
	if got := versionLine(stamp{}, nil, false); got != "promoengine (unknown build)" {
		t.Errorf("versionLine without build info = %q", got)
	}
	// A release build (scripts/build) stamps version, commit and date with
	// -ldflags -X; they win over the build information, VCS stamping or not.
	release := stamp{Version: "0.1.0", Commit: "00254cc3f1a2", Date: "2026-11-26T15:00:00Z"}
	if got, want := versionLine(release, stamped, true), "promoengine 0.1.0 rev 00254cc3f1a2 2026-11-26T15:00:00Z go1.26.8"; got != want {
		t.Errorf("versionLine of a stamped release = %q, want %q", got, want)
	}
	if got, want := versionLine(release, &debug.BuildInfo{GoVersion: "go1.26.8"}, true), "promoengine 0.1.0 rev 00254cc3f1a2 2026-11-26T15:00:00Z go1.26.8"; got != want {
		t.Errorf("versionLine of a stamped release built with -buildvcs=false = %q, want %q", got, want)
	}
}

func TestServeMetricsAddrAndDrainingReadiness(t *testing.T) {
	metricsAddr := freeAddr(t)
	vars := map[string]string{"PROMO_DATABASE_URL": entdbtest.URL(t),
		"PROMO_METRICS_ADDR": metricsAddr, "PROMO_SHUTDOWN_DELAY": "1s"}
	addr, _, stop := startServer(t, vars)
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// /metrics is on its own listener, not on the main one.
	if status, _ := get("http://" + addr + "/metrics"); status != http.StatusNotFound {
		t.Errorf("main listener /metrics: %d, want 404", status)
	}
	status, body := get("http://" + metricsAddr + "/metrics")
	if status != http.StatusOK || !strings.Contains(body, `promoengine_http_requests_total{method="GET",route="/healthz",status="200"}`) ||
		!strings.Contains(body, "promoengine_db_open_connections") {
		t.Errorf("metrics listener: %d %.400s", status, body)
	}
	if status, _ := get("http://" + addr + "/readyz"); status != http.StatusOK {
		t.Fatalf("/readyz before shutdown: %d", status)
	}
	// The image's HEALTHCHECK: `promoengine healthcheck` asks PROMO_ADDR.
	healthcheck := func(args ...string) error {
		var out, errOut syncBuffer
		return run(context.Background(), append([]string{"healthcheck"}, args...), env(map[string]string{"PROMO_ADDR": addr}), &out, &errOut)
	}
	if err := healthcheck(); err != nil {
		t.Errorf("healthcheck of a ready server: %v", err)
	}

	// On the signal /readyz fails at once, while everything is still served
	// for PROMO_SHUTDOWN_DELAY.
	stopped := make(chan error, 1)
	start := time.Now()
	go func() { stopped <- stop() }()
	deadline := time.Now().Add(900 * time.Millisecond)
	for {
		status, body := get("http://" + addr + "/readyz")
		if status == http.StatusServiceUnavailable {
			if !strings.Contains(body, `"draining"`) {
				t.Errorf("/readyz while draining: %s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d after the signal", status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if status, _ := get("http://" + addr + "/healthz"); status != http.StatusOK {
		t.Errorf("/healthz while draining: %d", status)
	}
	if err := healthcheck(); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("healthcheck while draining = %v, want the 503", err)
	}
	if err := healthcheck("--path", "/healthz"); err != nil {
		t.Errorf("healthcheck --path /healthz while draining: %v", err)
	}
	if status, _ := get("http://" + metricsAddr + "/metrics"); status != http.StatusOK {
		t.Errorf("metrics while draining: %d", status)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("stopped after %v, before the shutdown delay", d)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("main listener still open after shutdown")
	}
	if err := healthcheck("--path", "/healthz"); err == nil {
		t.Error("healthcheck of a stopped server succeeded")
	}
	if _, err := http.Get("http://" + metricsAddr + "/metrics"); err == nil {
		t.Error("metrics listener still open after shutdown")
	}
}

// TestHealthURL: the healthcheck asks loopback when the server listens on
// every interface, and the named host otherwise.
func TestHealthURL(t *testing.T) {
	for addr, want := range map[string]string{
		":8080":          "http://127.0.0.1:8080/readyz",
		"0.0.0.0:9000":   "http://127.0.0.1:9000/readyz",
		"[::]:9000":      "http://127.0.0.1:9000/readyz",
		"10.0.0.11:8080": "http://10.0.0.11:8080/readyz",
	} {
		if got, err := healthURL(addr, "/readyz"); err != nil || got != want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	if _, err := healthURL("8080", "/readyz"); err == nil {
		t.Error("an address without a port was accepted")
	}
}

package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
)

// TestTracingSpansOfARequest: with an OTLP endpoint configured, a REST
// request yields a server span named by its route with the request id,
// and the SQL statements it ran are its descendants in the same trace; a
// GraphQL request adds an operation span between the two. The spans go to
// the SDK's in-memory exporter instead of OTLP.
func TestTracingSpansOfARequest(t *testing.T) {
	exporter := tracetest.NewInMemoryExporter()
	testSpanExporter = exporter
	t.Cleanup(func() {
		testSpanExporter = nil
		otel.SetTracerProvider(noop.NewTracerProvider())
	})
	vars := map[string]string{"PROMO_DATABASE_URL": entdbtest.URL(t),
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", // never dialled: the test exporter replaces OTLP
		"PROMO_BOOTSTRAP_APP_ID":      "trace-app", "PROMO_BOOTSTRAP_APP_TOKEN": "trace-token"}
	addr, _, stop := startServer(t, vars)
	defer func() { _ = stop() }()

	send := func(method, path, requestID, body string) {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-App-Id", "trace-app")
		req.Header.Set("X-App-Token", "trace-token")
		req.Header.Set("X-Request-Id", requestID)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
		}
	}
	send(http.MethodGet, "/v1/campaigns", "trace-rest-1", "")
	send(http.MethodPost, "/graphql", "trace-gql-1",
		`{"query": "query Campaigns { campaigns(first: 5) { totalCount } }", "operationName": "Campaigns"}`)

	spans := exporter.GetSpans()
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID()] = s
	}
	// descendant reports whether s lies below ancestor in ancestor's trace.
	descendant := func(s, ancestor tracetest.SpanStub) bool {
		for s.Parent.IsValid() && s.Parent.TraceID() == ancestor.SpanContext.TraceID() {
			if s.Parent.SpanID() == ancestor.SpanContext.SpanID() {
				return true
			}
			parent, ok := byID[s.Parent.SpanID()]
			if !ok {
				return false
			}
			s = parent
		}
		return false
	}
	server := func(requestID string) tracetest.SpanStub {
		t.Helper()
		for _, s := range spans {
			if s.SpanKind == trace.SpanKindServer && hasAttr(s.Attributes, "promoengine.request_id", requestID) {
				return s
			}
		}
		t.Fatalf("no server span with request id %s among %d spans: %v", requestID, len(spans), spanNames(spans))
		return tracetest.SpanStub{}
	}

	rest := server("trace-rest-1")
	if rest.Name != "GET /v1/campaigns" || !hasAttr(rest.Attributes, "http.route", "/v1/campaigns") {
		t.Errorf("REST server span %q, attributes %v", rest.Name, rest.Attributes)
	}
	sqlUnder := func(parent tracetest.SpanStub) int {
		n := 0
		for _, s := range spans {
			if s.SpanKind == trace.SpanKindClient && hasAttrKey(s.Attributes, "db.query.text") && descendant(s, parent) {
				n++
			}
		}
		return n
	}
	if n := sqlUnder(rest); n == 0 {
		t.Errorf("no SQL span below the REST request's span; spans: %v", spanNames(spans))
	}

	gql := server("trace-gql-1")
	var operation *tracetest.SpanStub
	for i, s := range spans {
		if s.Name == "query Campaigns" && descendant(s, gql) {
			operation = &spans[i]
		}
	}
	if operation == nil {
		t.Fatalf("no GraphQL operation span below the /graphql request's span; spans: %v", spanNames(spans))
	}
	if n := sqlUnder(*operation); n == 0 {
		t.Errorf("no SQL span below the GraphQL operation's span; spans: %v", spanNames(spans))
	}
}

// TestTracingOffByDefault: without an OTLP endpoint nothing is set up.
func TestTracingOffByDefault(t *testing.T) {
	on, stop, err := setupTracing(context.Background(), env(nil), discardLogger())
	if on || err != nil || stop(context.Background()) != nil {
		t.Errorf("setupTracing without an endpoint = %v, %v", on, err)
	}
	on, _, err = setupTracing(context.Background(), env(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"}), discardLogger())
	if on || err != nil {
		t.Errorf("setupTracing with OTEL_SDK_DISABLED=true = %v, %v", on, err)
	}
}

func hasAttr(attrs []attribute.KeyValue, key, value string) bool {
	for _, a := range attrs {
		if string(a.Key) == key && a.Value.Emit() == value {
			return true
		}
	}
	return false
}

func hasAttrKey(attrs []attribute.KeyValue, key string) bool {
	for _, a := range attrs {
		if string(a.Key) == key {
			return true
		}
	}
	return false
}

func spanNames(spans tracetest.SpanStubs) []string {
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.Name
	}
	return names
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

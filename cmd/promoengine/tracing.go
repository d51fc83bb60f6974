package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// tracingSettings are the standard OpenTelemetry variables that switch
// tracing on (the exporter reads them, and its other OTEL_EXPORTER_OTLP_*
// variables, itself).
func tracingSettings() []setting {
	return []setting{
		envOnly("OTEL_EXPORTER_OTLP_ENDPOINT", "",
			"OpenTelemetry tracing: the OTLP/HTTP collector, e.g. http://otel-collector:4318 (spans go to /v1/traces); unset (and no OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): tracing off"),
		envOnly("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "",
			"the full OTLP/HTTP traces URL, e.g. http://otel-collector:4318/v1/traces (wins over OTEL_EXPORTER_OTLP_ENDPOINT)"),
	}
}

// testSpanExporter replaces the OTLP exporter in tests (an in-memory one,
// exporting synchronously).
var testSpanExporter sdktrace.SpanExporter

// setupTracing switches OpenTelemetry tracing on when an OTLP endpoint is
// configured (and OTEL_SDK_DISABLED is not true): it sets the global tracer
// provider, exporting batches over OTLP/HTTP, and the W3C trace-context
// propagator. It returns whether tracing is on and the function that
// flushes and stops it. Off, nothing is installed: the request, GraphQL and
// SQL instrumentation is left out altogether (serve passes the result on).
func setupTracing(ctx context.Context, getenv func(string) string, log *slog.Logger) (bool, func(context.Context) error, error) {
	noop := func(context.Context) error { return nil }
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") ||
		(getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "") {
		return false, noop, nil
	}
	var spanProcessor sdktrace.SpanProcessor
	if testSpanExporter != nil {
		spanProcessor = sdktrace.NewSimpleSpanProcessor(testSpanExporter)
	} else {
		// The exporter reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS,
		// _TIMEOUT, _COMPRESSION and the TLS settings itself.
		exporter, err := otlptracehttp.New(ctx)
		if err != nil {
			return false, noop, fmt.Errorf("tracing: OTLP exporter: %w", err)
		}
		spanProcessor = sdktrace.NewBatchSpanProcessor(exporter)
	}
	attrs := []attribute.KeyValue{attribute.String("service.version", linked().Version)}
	if getenv("OTEL_SERVICE_NAME") == "" {
		attrs = append(attrs, attribute.String("service.name", "promoengine"))
	}
	// resource.Default reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES;
	// the sampler comes from OTEL_TRACES_SAMPLER (default: parent-based,
	// always on).
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attrs...))
	if err != nil {
		return false, noop, fmt.Errorf("tracing: resource: %w", err)
	}
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spanProcessor), sdktrace.WithResource(res))
	otel.SetTracerProvider(provider)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	log.Info("tracing on: OpenTelemetry spans exported over OTLP/HTTP",
		"endpoint", firstSet(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), getenv("OTEL_EXPORTER_OTLP_ENDPOINT")))
	return true, provider.Shutdown, nil
}

// firstSet returns the first non-empty value.
func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

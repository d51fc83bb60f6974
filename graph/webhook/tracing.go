package webhook

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// deliveryTracer makes the delivery spans, from the global tracer provider
// at the time of use (cmd/promoengine sets it when tracing is on; otherwise every
// span is a no-op).
func deliveryTracer() trace.Tracer {
	return otel.Tracer("github.com/promoengine/promoengine/graph/webhook")
}

// startDelivery opens the span of one delivery attempt of ev (a root span:
// deliveries run in the job worker, after the request that caused them).
func startDelivery(ctx context.Context, ev claimedEvent) (context.Context, trace.Span) {
	attrs := []attribute.KeyValue{
		attribute.String("promoengine.webhook_event.id", ev.ID),
		attribute.String("promoengine.webhook_event.type", ev.Type),
	}
	if ev.hook != nil {
		attrs = append(attrs, attribute.String("promoengine.webhook.id", ev.hook.ID))
	}
	return deliveryTracer().Start(ctx, "webhook delivery", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endDelivery records the attempt's outcome on span and ends it.
func endDelivery(span trace.Span, out attemptOutcome, err error) {
	if out.status != nil {
		span.SetAttributes(attribute.Int("http.response.status_code", *out.status))
	}
	switch {
	case err != nil:
		span.RecordError(err)
		span.SetStatus(codes.Error, "delivery failed")
	case !out.ok():
		span.SetStatus(codes.Error, out.err)
	}
	span.End()
}

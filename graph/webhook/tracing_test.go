package webhook

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/promoengine/promoengine/ent"
)

// TestDeliverySpans: with a tracer provider set, each delivery attempt is
// a span naming the webhook and the event, with the answer's status, and
// an error status when the attempt did not get a 2xx or failed.
func TestDeliverySpans(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)))
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })

	ev := claimedEvent{WebhookEvent: &ent.WebhookEvent{ID: "whe_1", Type: "voucher.published"}, hook: &ent.Webhook{ID: "wh_1"}}
	ok, failed := 204, 500
	attempts := []struct {
		out        attemptOutcome
		err        error
		wantStatus string // http.response.status_code, "" for none
		wantErr    bool
	}{
		{attemptOutcome{status: &ok}, nil, "204", false},
		{attemptOutcome{status: &failed, err: "HTTP 500: boom"}, nil, "500", true},
		{attemptOutcome{}, errors.New("payload"), "", true},
	}
	for _, a := range attempts {
		_, span := startDelivery(context.Background(), ev)
		endDelivery(span, a.out, a.err)
	}
	spans := recorder.Ended()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want 3", len(spans))
	}
	for i, s := range spans {
		attrs := map[string]string{}
		for _, a := range s.Attributes() {
			attrs[string(a.Key)] = a.Value.Emit()
		}
		if s.Name() != "webhook delivery" || attrs["promoengine.webhook.id"] != "wh_1" ||
			attrs["promoengine.webhook_event.id"] != "whe_1" || attrs["promoengine.webhook_event.type"] != "voucher.published" {
			t.Errorf("span %d: %q %v", i, s.Name(), attrs)
		}
		if attrs["http.response.status_code"] != attempts[i].wantStatus {
			t.Errorf("span %d: status code %q, want %q", i, attrs["http.response.status_code"], attempts[i].wantStatus)
		}
		if gotErr := s.Status().Code == codes.Error; gotErr != attempts[i].wantErr {
			t.Errorf("span %d: status %v", i, s.Status())
		}
	}
}

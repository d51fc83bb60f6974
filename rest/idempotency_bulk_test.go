package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestIdempotencyKeyOnALargeBulkBody: the bulk voucher endpoints take
// bodies up to 10 MB, with an Idempotency-Key as without one; the key
// replays the first answer (one job, not two).
func TestIdempotencyKeyOnALargeBulkBody(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	note := strings.Repeat("x", 600)
	items := make([]any, 2500) // about 1.6 MB, above the 1 MB of other bodies
	for i := range items {
		items[i] = map[string]any{"code": fmt.Sprintf("BIG-%d", i), "metadata": map[string]any{"note": note}}
	}
	first := e.DoJSON(http.MethodPost, "/v1/vouchers/bulk/async", items, keyed(app, "bulk-1"))
	if first.Status != http.StatusAccepted {
		t.Fatalf("keyed bulk update of %d items: %d %s", len(items), first.Status, first.Body)
	}
	sameAnswer(t, first, e.DoJSON(http.MethodPost, "/v1/vouchers/bulk/async", items, keyed(app, "bulk-1")))
}

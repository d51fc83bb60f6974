package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/promoengine/promoengine/rest"
	"github.com/promoengine/promoengine/rest/resttest"
)

// BenchmarkRedemptionsPage: the server's work for a page of 50 of GET
// /v1/redemptions (page 1 and a deep page), through the router in process
// (no network), on a history of redemptions of 50 distinct codes with a
// customer, an order and metadata each, as docs/bench/lists-project.sh
// clones them. cpu-ns/op is the CPU time of the test process (server and
// client, not PostgreSQL's) per page: less sensitive to a shared host than
// ns/op, which includes waiting for the database. With -cpuprofile / -memprofile it shows where a page's CPU
// and allocations go; run on PostgreSQL with .ci/with-postgres:
//
//	.ci/with-postgres go test ./rest -run '^$' -bench BenchmarkRedemptionsPage -benchmem
func BenchmarkRedemptionsPage(b *testing.B) {
	e := resttest.NewWithOptions(b, func(o *rest.Options) { o.RateLimit = -1 })
	e.SkipContract = true
	app := resttest.App(e.Project)
	ok := func(r resttest.Response) {
		b.Helper()
		if r.Status != http.StatusOK {
			b.Fatalf("%d %s", r.Status, r.Body)
		}
	}
	ok(e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "bench", "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app))
	for i := range 3 {
		ok(e.DoJSON(http.MethodPost, "/v1/customers", map[string]any{"source_id": fmt.Sprint("real-", i), "name": fmt.Sprint("Customer ", i),
			"email": fmt.Sprint("real", i, "@example.com"), "phone": "+48100200300", "address": map[string]any{"city": "Warsaw", "country": "PL"},
			"metadata": map[string]any{"tier": "gold"}}, app))
	}
	const codes = 50
	for i := range 2 * codes {
		code := fmt.Sprintf("BULK%03d", i%codes)
		if i < codes {
			ok(e.DoJSON(http.MethodPost, "/v1/campaigns/bench/vouchers", map[string]any{"code": code}, app))
		}
		ok(e.DoJSON(http.MethodPost, "/v1/redemptions", map[string]any{
			"redeemables": []any{map[string]any{"object": "voucher", "id": code}},
			"customer":    map[string]any{"source_id": fmt.Sprint("real-", i%3)},
			"order": map[string]any{"source_id": fmt.Sprint("order-", i), "amount": 20000,
				"items": []any{map[string]any{"source_id": "sku-1", "quantity": 2, "price": 10000}}},
			"metadata": map[string]any{"shop": "web"}}, app))
	}
	h := e.Server.Config.Handler
	for _, page := range []string{"1", "2"} {
		b.Run("page"+page, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/v1/redemptions?limit=50&page="+page, nil)
			for k, v := range app {
				req.Header.Set(k, v)
			}
			b.ReportAllocs()
			cpu0 := processCPU(b)
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK || w.Body.Len() < 50*1000 {
					b.Fatalf("%d %.300s", w.Code, w.Body.String())
				}
			}
			b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

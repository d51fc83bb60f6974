package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// BenchmarkCampaignVouchersPage runs the list query of docs/bench/graphql.sh
// (a campaign's first 50 vouchers) through the GraphQL handler in process,
// on SQLite or — under .ci/with-postgres — PostgreSQL:
//
//	go test ./graph/ -run '^$' -bench CampaignVouchersPage -benchmem
func BenchmarkCampaignVouchersPage(b *testing.B) {
	ctx := benchProjectContext(b)
	name := "bench"
	err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := campaign.CreateCampaign(ctx, campaign.CreateCampaignInput{Name: name, Voucher: &jsonfield.VoucherProfile{
			Type: "DISCOUNT_VOUCHER", Discount: &jsonfield.Discount{Type: "AMOUNT", AmountOff: graphtest.Ptr(100.0)}}}); err != nil {
			return err
		}
		for i := range 200 {
			code := fmt.Sprintf("B%04d", i)
			if _, err := campaign.AddVoucher(ctx, name, &campaign.AddVouchersInput{Code: &code}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	query := `{ campaign(idOrName: "bench") { vouchers(first: 50) { edges { node { id code type active createdAt
		startDate expirationDate redemptionQuantity redeemedQuantity metadata } } } } }`
	gqlQuery(b, ctx, query) // fails the benchmark on errors
	body, _ := json.Marshal(map[string]any{"query": query})
	h := testHandler()
	b.ReportAllocs()
	b.SetParallelism(8) // 16 concurrent requests on 2 cores, as wrk -c16
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body)).WithContext(ctx)
			req.Header.Set("Content-Type", "application/json")
			rw := httptest.NewRecorder()
			h.ServeHTTP(rw, req)
			if rw.Code != http.StatusOK {
				b.Errorf("status %d: %s", rw.Code, rw.Body)
				return
			}
		}
	})
}

// benchProjectContext is projectContext for a benchmark.
func benchProjectContext(b *testing.B) context.Context {
	b.Helper()
	db := entdbtest.Open(b)
	ctx := entdb.WithDialect(ent.NewContext(context.Background(), db.Client), db.Dialect)
	var creds access.ProjectCredentials
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		creds, err = access.CreateProject(ctx, "bench", "", "")
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return viewer.NewContext(ctx, viewer.Viewer{ProjectID: creds.ProjectID})
}

package campaign

import (
	"context"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// BenchmarkImportVsGeneration imports N existing codes into a campaign
// from a CSV (Code and Category columns; PROMO_BENCH_METADATA=1 adds a
// metadata column whose value differs on every row) and generates N codes,
// request to DONE, in alternating order each iteration (N = 100,000 or
// PROMO_BENCH_CODES), on the suites' database. It reports both times and
// their ratio (import/generation), and the process's peak RSS. The CSV is
// written into the request as it is read (a pipe), as a client uploads
// it, so the file is never in the process's memory whole:
//
//	PROMO_BENCH_CODES=1000000 .ci/with-postgres go test ./graph/campaign -run X -bench ImportVsGeneration -benchtime 3x
func BenchmarkImportVsGeneration(b *testing.B) {
	codes := benchEnvInt(b, "PROMO_BENCH_CODES", 100_000)
	withMetadata := benchEnvInt(b, "PROMO_BENCH_METADATA", 0) == 1
	db, ctx := graphtest.ProjectContext(b)
	w := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "bench", Logger: quiet}
	length := 12
	run := func(schedule func(ctx context.Context) (*ent.AsyncAction, error)) time.Duration {
		start := time.Now()
		var job *ent.AsyncAction
		err := store.InTx(ctx, func(ctx context.Context) error {
			var err error
			job, err = schedule(ctx)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
			b.Fatalf("job not run: %v %v", worked, err)
		}
		elapsed := time.Since(start)
		if j := db.Client.AsyncAction.GetX(ctx, job.ID); j.Status != asyncaction.StatusDONE || j.Done != codes ||
			j.Result["failed_count"] != nil && fmt.Sprint(j.Result["failed_count"]) != "0" {
			b.Fatalf("job %s %s, %d done, result %v", j.Type, j.Status, j.Done, j.Result)
		}
		return elapsed
	}
	var imports, generations time.Duration
	for i := 0; b.Loop(); i++ {
		importOnce := func() {
			imports += run(func(ctx context.Context) (*ent.AsyncAction, error) {
				name := fmt.Sprint("imported", i)
				if _, err := CreateCampaign(ctx, CreateCampaignInput{Name: name, Voucher: &jsonfield.VoucherProfile{}}); err != nil {
					return nil, err
				}
				return ImportToCampaignCSV(ctx, name, benchCSV(i, codes, withMetadata))
			})
		}
		generateOnce := func() {
			generations += run(func(ctx context.Context) (*ent.AsyncAction, error) {
				name := fmt.Sprint("generated", i)
				if _, err := CreateCampaign(ctx, CreateCampaignInput{Name: name, Voucher: &jsonfield.VoucherProfile{
					CodeConfig: &jsonfield.CodeConfig{Length: &length}}}); err != nil {
					return nil, err
				}
				return GenerateVouchers(ctx, name, codes, nil)
			})
		}
		if i%2 == 0 {
			importOnce()
			generateOnce()
		} else {
			generateOnce()
			importOnce()
		}
	}
	b.ReportMetric(imports.Seconds()/float64(b.N), "import-s/op")
	b.ReportMetric(generations.Seconds()/float64(b.N), "generation-s/op")
	b.ReportMetric(imports.Seconds()/generations.Seconds(), "import/generation")
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
}

// benchCSV streams a CSV of n distinct codes (prefix by iteration).
func benchCSV(iteration, n int, withMetadata bool) io.Reader {
	r, w := io.Pipe()
	go func() {
		header := "Code,Category\n"
		if withMetadata {
			header = "Code,Category,order_ref\n"
		}
		_, err := io.WriteString(w, header)
		for i := 0; i < n && err == nil; i++ {
			if withMetadata {
				_, err = fmt.Fprintf(w, "IMP%d-%08d,Moved,ref-%d\n", iteration, i, i)
			} else {
				_, err = fmt.Fprintf(w, "IMP%d-%08d,Moved\n", iteration, i)
			}
		}
		w.CloseWithError(err)
	}()
	return r
}

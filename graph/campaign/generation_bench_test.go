package campaign

import (
	"context"
	"fmt"
	"os"
	"strconv"
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

// BenchmarkGenerationJob runs one generation job of random 12-character
// codes per iteration (100,000, or PROMO_BENCH_CODES), the way the
// server's worker does, on the suites' database (SQLite unless
// PROMO_TEST_DATABASE_URL is set); PROMO_BENCH_BATCH sets the worker's
// BatchSize. It reports the CPU time too, steadier than the wall clock on a
// shared machine. A profile of the worker:
//
//	go test ./graph/ -run X -bench GenerationJob -benchtime 1x -cpuprofile /tmp/gen.pprof
func BenchmarkGenerationJob(b *testing.B) {
	codes := benchEnvInt(b, "PROMO_BENCH_CODES", 100_000)
	db, ctx := graphtest.ProjectContext(b)
	length := 12
	w := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "bench", Logger: quiet, BatchSize: benchEnvInt(b, "PROMO_BENCH_BATCH", 0)}
	cpu0 := cpuTime()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		var job *ent.AsyncAction
		err := store.InTx(ctx, func(ctx context.Context) error {
			name := fmt.Sprint("c", i)
			if _, err := CreateCampaign(ctx, CreateCampaignInput{Name: name, Voucher: &jsonfield.VoucherProfile{
				CodeConfig: &jsonfield.CodeConfig{Length: &length}}}); err != nil {
				return err
			}
			var err error
			job, err = GenerateVouchers(ctx, name, codes, nil)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
			b.Fatalf("job not run: %v %v", worked, err)
		}
		b.StopTimer()
		if j := db.Client.AsyncAction.GetX(ctx, job.ID); j.Status != asyncaction.StatusDONE || j.Done != codes {
			b.Fatalf("job %s, %d done", j.Status, j.Done)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(codes)*float64(b.N)/b.Elapsed().Seconds(), "codes/s")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
}

// cpuTime is the process's user and system CPU time so far: on a shared
// machine a steadier measure than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchEnvInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return n
}

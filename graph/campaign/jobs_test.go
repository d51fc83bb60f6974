package campaign

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// TestCrashedJobResumesWithoutDuplicates: worker A claims a job, commits one
// batch and dies. Nobody else may take the job while A's lease holds; after
// it expires worker B resumes and finishes with exactly the requested count,
// and A's late batch is refused.
func TestCrashedJobResumesWithoutDuplicates(t *testing.T) {
	db, ctx := graphtest.ProjectContext(t)
	pattern, charset := "#####", "0123456789"
	var job *ent.AsyncAction
	err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := CreateCampaign(ctx, CreateCampaignInput{Name: "c", Voucher: &jsonfield.VoucherProfile{
			CodeConfig: &jsonfield.CodeConfig{Pattern: &pattern, Charset: &charset}}}); err != nil {
			return err
		}
		var err error
		job, err = GenerateVouchers(ctx, "c", 1000, nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	lease := 300 * time.Millisecond
	a := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "A", Lease: lease, BatchSize: 100, Logger: quiet}
	b := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "B", Lease: lease, BatchSize: 100, Logger: quiet}
	a.Defaults()
	claimed, err := a.Claim(context.Background())
	if err != nil || claimed == nil || claimed.ID != job.ID {
		t.Fatalf("A claim: %v %v", claimed, err)
	}
	batch := func(w *jobrun.Worker, codes []string) (int, error) {
		return w.CommitBatch(ctx, claimed, func(ctx context.Context) (int, error) {
			return InsertVouchers(ctx, claimed.ProjectID, claimed.CampaignID, &claimed.Params.Template, codes)
		})
	}
	gen, _ := CodeGenerator(&claimed.Params.CodeConfig)
	next, _ := candidateSource(gen)
	if n, err := batch(a, next(100)); err != nil || n != 100 {
		t.Fatalf("A batch: %d %v", n, err)
	}
	// A "crashes" here. While its lease holds, B finds nothing to do.
	if worked, err := b.RunOnce(context.Background()); worked || err != nil {
		t.Fatalf("B took a leased job: %v %v", worked, err)
	}
	time.Sleep(lease + 50*time.Millisecond)
	if worked, err := b.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("B did not resume the job: %v %v", worked, err)
	}
	// A wakes up and tries to commit another batch: refused, nothing kept.
	if _, err := batch(a, next(100)); !errors.Is(err, jobrun.ErrLeaseLost) {
		t.Fatalf("A's late batch: %v", err)
	}
	final, err := db.Client.AsyncAction.Get(ctx, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if final.Status != asyncaction.StatusDONE || final.Done != 1000 || final.Attempts != 2 {
		t.Errorf("job = %s done %d attempts %d", final.Status, final.Done, final.Attempts)
	}
	stored := db.Client.Voucher.Query().Where(voucher.CampaignID(*final.CampaignID)).CountX(ctx)
	cmp := db.Client.Campaign.GetX(ctx, *final.CampaignID)
	if stored != 1000 || cmp.VouchersCount != 1000 {
		t.Errorf("stored %d, campaign count %d; want 1000", stored, cmp.VouchersCount)
	}
}

// TestInterruptedJobIsHandedBack: a worker stopped mid-job (shutdown)
// releases it at once and another worker finishes it.
func TestInterruptedJobIsHandedBack(t *testing.T) {
	db, ctx := graphtest.ProjectContext(t)
	var job *ent.AsyncAction
	if err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := CreateCampaign(ctx, CreateCampaignInput{Name: "c"}); err != nil {
			return err
		}
		var err error
		job, err = GenerateVouchers(ctx, "c", 3000, nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// A is stopped as it records its second batch, whatever the machine's
	// load (a poll for progress could let A finish the job first): the
	// first batch is committed, the second rolled back with the stop.
	stopCtx, stop := context.WithCancel(context.Background())
	var batches atomic.Int32
	db.Client.AsyncAction.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if progress, ok := m.(*ent.AsyncActionMutation); ok {
				if n, ok := progress.AddedDone(); ok && n > 0 && batches.Add(1) == 2 {
					stop()
				}
			}
			return next.Mutate(ctx, m)
		})
	})
	a := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "A", BatchSize: 50, Lease: time.Hour, Logger: quiet}
	if _, err := a.RunOnce(stopCtx); err != nil && !errors.Is(err, context.Canceled) {
		t.Logf("A stopped with %v", err)
	}
	mid := db.Client.AsyncAction.GetX(ctx, job.ID)
	if mid.Done == 0 || mid.Done >= 3000 {
		t.Fatalf("A stopped with %d of 3000 done; want it stopped mid-job", mid.Done)
	}
	if mid.ClaimedBy != nil {
		t.Fatalf("interrupted job still claimed by %s", *mid.ClaimedBy)
	}
	b := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "B", BatchSize: 500, Logger: quiet}
	if worked, err := b.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("B: %v %v", worked, err)
	}
	final := db.Client.AsyncAction.GetX(ctx, job.ID)
	stored := db.Client.Voucher.Query().CountX(ctx)
	if final.Status != asyncaction.StatusDONE || final.Done != 3000 || stored != 3000 {
		t.Errorf("job %s done %d, %d vouchers stored; want DONE 3000", final.Status, final.Done, stored)
	}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

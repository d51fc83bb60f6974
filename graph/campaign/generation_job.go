package campaign

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	jobrun "github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/vouchercode"
)

// JobVouchersGeneration is the async action type of bulk voucher generation.
const JobVouchersGeneration = "CAMPAIGN.VOUCHERS_GENERATION"

// denseSpace is the largest code space enumerated as a shuffled list
// instead of drawn at random (4M indices = 16 MB): in small spaces random
// draws would mostly collide as the space fills.
const denseSpace = 4 << 20

// stallBatches is how many batches in a row may add nothing before a job
// gives up on an exhausted code space.
const stallBatches = 50

// sqliteBatchFactor: on SQLite a generation transaction writes this many
// of the worker's batches at once. SQLite has one writer, which writes
// every index page a transaction changed into its log at each commit (and
// copies it back at the next checkpoint); random codes and IDs change most
// of the indexes' pages in every batch, so fewer, larger transactions write
// far less (at 300,000 codes: 5,000 a transaction cost 14.5 CPU-seconds,
// 50,000 cost 6.8; at 1,000,000 100,000 would save a quarter more). Other
// writers wait for the one writer meanwhile: a transaction of 50,000 takes
// one to two seconds on a busy two-core machine.
const sqliteBatchFactor = 10

// Generate makes the job's remaining vouchers, one committed batch at a time.
func Generate(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	p := job.Params
	if p == nil {
		return fmt.Errorf("job %s has no parameters", job.ID)
	}
	gen, err := CodeGenerator(&p.CodeConfig)
	if err != nil {
		return err
	}
	next, dense := candidateSource(gen)
	batch := w.BatchSize
	if w.Dialect == dialect.SQLite {
		batch *= sqliteBatchFactor
	}
	done, stalled := job.Done, 0
	for done < job.Total {
		if err := ctx.Err(); err != nil {
			return err
		}
		codes := next(min(batch, job.Total-done))
		if len(codes) == 0 {
			return fmt.Errorf("the code space is exhausted after %d of %d vouchers", done, job.Total)
		}
		n, err := w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
			return InsertVouchers(ctx, job.ProjectID, job.CampaignID, &p.Template, codes)
		})
		if err != nil {
			return err
		}
		done += n
		if n == 0 && !dense {
			if stalled++; stalled >= stallBatches {
				return fmt.Errorf("no new unique codes found in %d attempts: the code space is exhausted after %d of %d vouchers",
					stallBatches, done, job.Total)
			}
		} else {
			stalled = 0
		}
	}
	return nil
}

// candidateSource returns a function that yields up to n fresh candidate
// codes per call (unique among themselves; the database rejects those that
// already exist). Small spaces are walked in a random permutation, large
// ones drawn at random (dense reports which). Only random draws can stall.
func candidateSource(gen *vouchercode.Generator) (next func(n int) []string, dense bool) {
	src := vouchercode.NewSource()
	if space := gen.Space(); space <= denseSpace {
		perm := make([]uint32, space)
		for i := range perm {
			perm[i] = uint32(i)
		}
		for i := len(perm) - 1; i > 0; i-- {
			j := src.Intn(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		return func(n int) []string {
			n = min(n, len(perm))
			codes := make([]string, n)
			for i := range codes {
				codes[i] = gen.At(uint64(perm[i]))
			}
			perm = perm[n:]
			return codes
		}, true
	}
	return func(n int) []string {
		seen := make(map[string]struct{}, n)
		codes := make([]string, 0, n)
		for len(codes) < n {
			c := gen.Random(src)
			if _, dup := seen[c]; !dup {
				seen[c] = struct{}{}
				codes = append(codes, c)
			}
		}
		return codes
	}, false
}

package campaign

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/uploadchunk"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// TestCrashedCSVImportResumesWithoutDuplicates: worker A imports the first
// batch of a CSV import and dies; after its lease B reads the stored file
// again, skips the committed rows and imports the rest. Every good row is
// imported once, every bad row reported once, and the file is deleted.
func TestCrashedCSVImportResumesWithoutDuplicates(t *testing.T) {
	db, ctx := graphtest.ProjectContext(t)
	var csv strings.Builder
	csv.WriteString("\ufeffCode,Category,Active,season\n")
	for i := range 1000 {
		switch i {
		case 150:
			csv.WriteString("CODE-0007,,true,winter\n") // a duplicate of row 7
		case 420:
			csv.WriteString("CODE-0420,,maybe,winter\n") // a bad Active
		case 730:
			csv.WriteString("CODE-0730,too,many,fields,here\n")
		default:
			fmt.Fprintf(&csv, "CODE-%04d,Imported,true,\"summer, %d\"\n", i, i%3)
		}
	}
	var job *ent.AsyncAction
	err := store.InTx(ctx, func(ctx context.Context) error {
		if _, err := CreateCampaign(ctx, CreateCampaignInput{Name: "imported", Voucher: &jsonfield.VoucherProfile{}}); err != nil {
			return err
		}
		var err error
		job, err = ImportToCampaignCSV(ctx, "imported", strings.NewReader(csv.String()))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if job.Total != 1000 || db.Client.UploadChunk.Query().Where(uploadchunk.JobID(job.ID)).CountX(ctx) == 0 {
		t.Fatalf("job total %d; the file must be stored", job.Total)
	}

	lease := 300 * time.Millisecond
	a := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "A", Lease: lease, BatchSize: 100, Logger: quiet}
	b := &jobrun.Worker{Client: db.Client, Dialect: db.Dialect, ID: "B", Lease: lease, BatchSize: 100, Logger: quiet}
	a.Defaults()
	claimed, err := a.Claim(context.Background())
	if err != nil || claimed == nil || claimed.ID != job.ID {
		t.Fatalf("A claim: %v %v", claimed, err)
	}
	// A imports rows 1-200 in two batches, then "crashes".
	r := importCSVReader(jobrun.OpenUpload(ctx, job.ID))
	header, err := importHeader(r)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		var rows []importRow
		for range 100 {
			rec, _ := r.Read()
			line, _ := r.FieldPos(0)
			rows = append(rows, csvImportRow(header, rec, line))
		}
		if n, err := commitImportBatch(ctx, a, claimed, *claimed.CampaignID, rows); err != nil || n != 100 {
			t.Fatalf("A batch: %d %v", n, err)
		}
	}
	time.Sleep(lease + 50*time.Millisecond)
	if worked, err := b.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("B did not resume the import: %v %v", worked, err)
	}
	final := db.Client.AsyncAction.GetX(ctx, job.ID)
	res := final.Result
	if final.Status != asyncaction.StatusDONE || final.Done != 1000 || fmt.Sprint(res["done_count"], res["failed_count"]) != "997 3" {
		t.Fatalf("job = %s done %d result %v", final.Status, final.Done, res)
	}
	failed := fmt.Sprint(res["failed"])
	for _, want := range []string{"CODE-0007", "Duplicate code", "Active must be true or false", "5 fields; the header has 4"} {
		if !strings.Contains(failed, want) {
			t.Errorf("failures %s lack %q", failed, want)
		}
	}
	stored := db.Client.Voucher.Query().Where(voucher.CampaignID(*final.CampaignID)).CountX(ctx)
	cmp := db.Client.Campaign.GetX(ctx, *final.CampaignID)
	if stored != 997 || cmp.VouchersCount != 997 {
		t.Errorf("stored %d, campaign count %d; want 997", stored, cmp.VouchersCount)
	}
	v := db.Client.Voucher.Query().Where(voucher.Code("CODE-0005")).OnlyX(ctx)
	if v.Metadata["season"] != "summer, 2" || v.Category == nil || *v.Category != "Imported" || !v.Active {
		t.Errorf("CODE-0005 = metadata %v category %v active %v", v.Metadata, v.Category, v.Active)
	}
	if n := db.Client.UploadChunk.Query().Where(uploadchunk.JobID(job.ID)).CountX(ctx); n != 0 {
		t.Errorf("%d chunks of the file left after the import", n)
	}
}

package customer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/uploadchunk"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/job"
)

// TestCrashedCustomerImportResumesWithoutDuplicates: worker A imports the
// first two batches of a customer CSV and dies in the third; after its
// lease B reads the stored file again, skips the committed rows and
// imports the rest. Every good row makes one customer, every bad row is
// reported once by its row number, and the file is deleted.
func TestCrashedCustomerImportResumesWithoutDuplicates(t *testing.T) {
	for typ, h := range JobHandlers() {
		job.Register(typ, h)
	}
	db, ctx := graphtest.ProjectContext(t)
	var file strings.Builder
	file.WriteString("\ufeffSource_id,Name,Email,Address_City,tier\n")
	for i := range 450 {
		switch i {
		case 120:
			file.WriteString("cust-120,Bad,not-an-email,,\n")
		case 330:
			file.WriteString("cust-330,Too,many,fields,here,now\n")
		default:
			fmt.Fprintf(&file, "cust-%03d,Name %d,c%d@example.com,Oslo,\"gold, %d\"\n", i, i, i, i%2)
		}
	}
	var j *ent.AsyncAction
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		j, err = ImportCustomersCSV(ctx, strings.NewReader(file.String()))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if j.Total != 450 {
		t.Fatalf("job total %d, want 450", j.Total)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	lease := 300 * time.Millisecond
	a := &job.Worker{Client: db.Client, Dialect: db.Dialect, ID: "A", Lease: lease, Logger: quiet}
	b := &job.Worker{Client: db.Client, Dialect: db.Dialect, ID: "B", Lease: lease, Logger: quiet}
	a.Defaults()
	claimed, err := a.Claim(context.Background())
	if err != nil || claimed == nil || claimed.ID != j.ID {
		t.Fatalf("A claim: %v %v", claimed, err)
	}
	crash := errors.New("killed")
	err = job.RunCSVRows(ctx, a, claimed, customerCSVHeader, "failed",
		func(ctx context.Context, header []string, r job.CSVRow) (job.RowOutcome, error) {
			if r.Row > 2*job.BulkBatch+50 {
				return job.RowOutcome{}, crash // dies in the middle of the third batch
			}
			return importCustomerRow(ctx, header, r)
		})
	if !errors.Is(err, crash) {
		t.Fatalf("A: %v", err)
	}
	if n := db.Client.Customer.Query().CountX(ctx); n != 2*job.BulkBatch-1 {
		t.Fatalf("%d customers after A's two batches, want %d", n, 2*job.BulkBatch-1)
	}
	time.Sleep(lease + 50*time.Millisecond)
	if worked, err := b.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("B did not resume the import: %v %v", worked, err)
	}
	final := db.Client.AsyncAction.GetX(ctx, j.ID)
	res := final.Result
	if final.Status != asyncaction.StatusDONE || final.Done != 450 || fmt.Sprint(res["done_count"], res["failed_count"]) != "448 2" {
		t.Fatalf("job = %s done %d result %v", final.Status, final.Done, res)
	}
	failed := fmt.Sprint(res["failed"])
	for _, want := range []string{"row:121", "cust-120", "e-mail", "row:331", "6 fields; the header has 5"} {
		if !strings.Contains(failed, want) {
			t.Errorf("failures %s lack %q", failed, want)
		}
	}
	if n := db.Client.Customer.Query().CountX(ctx); n != 448 {
		t.Errorf("%d customers, want 448 (each good row once)", n)
	}
	c := db.Client.Customer.Query().Where(customer.SourceID("cust-005")).OnlyX(ctx)
	if c.Metadata["tier"] != "gold, 1" || c.Address == nil || *c.Address.City != "Oslo" || *c.Email != "c5@example.com" {
		t.Errorf("cust-005 = %+v", c)
	}
	if n := db.Client.UploadChunk.Query().Where(uploadchunk.JobID(j.ID)).CountX(ctx); n != 0 {
		t.Errorf("%d chunks of the file left after the import", n)
	}
}

package rest_test

import (
	"context"
	"encoding/csv"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	jobrun "github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/rest/resttest"
)

// anotherPool opens a second connection pool on the test's database, as
// a second server process has.
func anotherPool(t *testing.T, e *resttest.Env) *entdb.DB {
	t.Helper()
	db, err := entdb.Open(context.Background(), e.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// manyTransactions gives the gift card code n transactions, one
// millisecond apart, written straight to the database; some reasons need
// CSV quoting (commas, quotes, line breaks, non-ASCII).
func manyTransactions(t *testing.T, e *resttest.Env, code string, n int) {
	t.Helper()
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID})
	v := e.DB.Client.Voucher.Query().Where(voucher.Code(code)).OnlyX(ctx)
	reasons := []string{"top up", `say "hi", then go`, "line\nbreak", "Grüße ✓", ""}
	base := time.Now().UTC().Truncate(time.Millisecond).Add(-time.Duration(n) * time.Millisecond)
	for start := 0; start < n; start += 500 {
		var bulk []*ent.VoucherTransactionCreate
		for i := start; i < min(n, start+500); i++ {
			bulk = append(bulk, e.DB.Client.VoucherTransaction.Create().SetVoucherID(v.ID).SetNillableCampaignID(v.CampaignID).
				SetType(vouchertransaction.TypeCREDITS_ADDITION).SetAmount(1).SetBalance(int64(i+1)).
				SetSourceID("src-"+strconv.Itoa(i)).SetReason(reasons[i%len(reasons)]).
				SetCreatedAt(base.Add(time.Duration(i)*time.Millisecond)))
		}
		e.DB.Client.VoucherTransaction.CreateBulk(bulk...).ExecX(ctx)
	}
}

// exportResponse is a download's status, headers and body.
type exportResponse struct {
	status int
	header http.Header
	body   string
}

func getExport(t *testing.T, rawURL string) exportResponse {
	t.Helper()
	r := resttest.Fetch(t, rawURL)
	return exportResponse{r.Status, r.Header, r.Body}
}

// forgedDownloadPath is a download path with a valid, unexpired token for
// any export, DONE or not (what a link would be if one were handed out).
func forgedDownloadPath(t *testing.T, e *resttest.Env, id string) string {
	t.Helper()
	exp := e.DB.Client.Export.GetX(systemCtx(), id)
	exp.Status = export.StatusDONE
	size := int64(0)
	exp.Size = &size
	return exportpkg.DownloadPath(exp, time.Now())
}

// emptyDir fails the test if dir holds anything.
func emptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		t.Errorf("%s holds %s: exports must not touch the disk", dir, en.Name())
	}
}

// checkExportCSV parses an export of the fields source_id, balance and
// reason of manyTransactions' n rows and checks it holds each of them
// once, newest first.
func checkExportCSV(t *testing.T, body string, n int) {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("export is not CSV: %v", err)
	}
	if len(records) != n+1 || strings.Join(records[0], ",") != "source_id,balance,reason" {
		t.Fatalf("export has %d records (want %d), header %v", len(records), n+1, records[0])
	}
	for i, r := range records[1:] {
		if want := strconv.Itoa(n - 1 - i); r[0] != "src-"+want || r[1] != strconv.Itoa(n-i) {
			t.Fatalf("row %d is %v, want src-%s", i+1, r, want)
		}
	}
}

// TestExportRunOnOneProcessDownloadedFromAnother: the export job runs in
// one server process (its own pool, its own temporary directory) and the
// file is downloaded from another process (another pool and temporary
// directory) and from the first: the bytes are identical, span several
// chunks, and nothing is written to either directory.
func TestExportRunOnOneProcessDownloadedFromAnother(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-REPL", 0)
	const n = 1200
	manyTransactions(t, e, "GIFT-REPL", n)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-REPL/transactions/export",
		map[string]any{"parameters": map[string]any{"fields": []string{"source_id", "balance", "reason"}}}, app), http.StatusOK)
	id := exp["id"].(string)

	dirA, dirB := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", dirA)
	poolA := anotherPool(t, e)
	w := &jobrun.Worker{Client: poolA.Client, Dialect: poolA.Dialect, Logger: quietLogger, ID: "process-A", BatchSize: 250}
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("RunOnce: %v %v", worked, err)
	}
	done := must(t, e.Do(http.MethodGet, "/v1/exports/"+id, nil, app), http.StatusOK)
	if done["status"] != "DONE" {
		t.Fatalf("export: %v", done)
	}
	link := done["result"].(map[string]any)["url"].(string)
	path := link[strings.Index(link, "/v1/exports/"):]

	t.Setenv("TMPDIR", dirB)
	other := e.AnotherServer()
	fromB := getExport(t, other.URL+path)
	fromA := getExport(t, e.Server.URL+path)
	for name, r := range map[string]exportResponse{"process B": fromB, "process A": fromA} {
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/csv; charset=utf-8" ||
			r.header.Get("Content-Length") != strconv.Itoa(len(r.body)) ||
			r.header.Get("Content-Disposition") != `attachment; filename="`+id+`.csv"` {
			t.Fatalf("download from %s: %d %v", name, r.status, r.header)
		}
	}
	if fromA.body != fromB.body {
		t.Fatal("the two processes serve different bytes")
	}
	checkExportCSV(t, fromB.body, n)
	stored := e.DB.Client.Export.GetX(systemCtx(), id)
	chunks := e.DB.Client.ExportChunk.Query().Where(exportchunk.ExportID(id)).Order(exportchunk.BySeq()).AllX(systemCtx())
	if len(chunks) < 2 || stored.Chunks == nil || *stored.Chunks != len(chunks) || *stored.Size != int64(len(fromB.body)) ||
		*stored.Rows != n {
		t.Fatalf("stored: %d chunks, export chunks %v size %v rows %v", len(chunks), stored.Chunks, stored.Size, stored.Rows)
	}
	var joined strings.Builder
	for i, ch := range chunks {
		if ch.Seq != i || ch.ByteOffset != int64(joined.Len()) || ch.Size != len(ch.Data) || !strings.HasSuffix(ch.Data, "\n") {
			t.Fatalf("chunk %d: seq %d offset %d size %d", i, ch.Seq, ch.ByteOffset, ch.Size)
		}
		joined.WriteString(ch.Data)
	}
	if joined.String() != fromB.body {
		t.Fatal("the download is not the chunks in order")
	}
	if job := e.DB.Client.AsyncAction.Query().Where(asyncaction.ExportID(id)).OnlyX(systemCtx()); job.Done != n {
		t.Fatalf("job done %d, want %d", job.Done, n)
	}
	emptyDir(t, dirA)
	emptyDir(t, dirB)

	// The token check holds on every process.
	u := strings.SplitN(path, "?token=", 2)
	for _, bad := range []string{"", "x", "1." + strings.SplitN(u[1], ".", 2)[1], u[1] + "0"} {
		if r := getExport(t, other.URL+u[0]+"?token="+bad); r.status != http.StatusNotFound {
			t.Fatalf("token %q: %d", bad, r.status)
		}
	}
}

// TestExportInterruptedResumesOnAnotherProcess: a worker is stopped in the
// middle of an export (after some chunks committed): the export is not
// downloadable, not even with a valid token; a worker of another process
// resumes after the last committed chunk and the file has every row
// exactly once — the same bytes as an uninterrupted export.
func TestExportInterruptedResumesOnAnotherProcess(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-INT", 0)
	const n = 1000
	manyTransactions(t, e, "GIFT-INT", n)
	params := map[string]any{"parameters": map[string]any{"fields": []string{"source_id", "balance", "reason"}}}
	id := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-INT/transactions/export", params, app), http.StatusOK)["id"].(string)

	// Process A writes one row per chunk and is stopped after a few.
	poolA := anotherPool(t, e)
	a := &jobrun.Worker{Client: poolA.Client, Dialect: poolA.Dialect, Logger: quietLogger, ID: "process-A", BatchSize: 1}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() {
		for ctx.Err() == nil {
			if c, _ := e.DB.Client.ExportChunk.Query().Where(exportchunk.ExportID(id)).Count(systemCtx()); c >= 3 {
				stop()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	worked, err := a.RunOnce(ctx)
	if !worked || !errors.Is(err, context.Canceled) {
		t.Fatalf("process A: %v %v (it should have been interrupted)", worked, err)
	}
	stopped := must(t, e.Do(http.MethodGet, "/v1/exports/"+id, nil, app), http.StatusOK)
	if stopped["status"] != "IN_PROGRESS" || stopped["result"] != nil {
		t.Fatalf("interrupted export: %v", stopped)
	}
	committed := e.DB.Client.ExportChunk.Query().Where(exportchunk.ExportID(id)).CountX(systemCtx())
	job := e.DB.Client.AsyncAction.Query().Where(asyncaction.ExportID(id)).OnlyX(systemCtx())
	if committed < 3 || committed >= n || job.Done != committed || job.ClaimedBy != nil {
		t.Fatalf("after the interruption: %d chunks, job done %d, claimed by %v", committed, job.Done, job.ClaimedBy)
	}
	// A download before DONE is refused, even with a valid token.
	forged := forgedDownloadPath(t, e, id)
	if r := getExport(t, e.Server.URL+forged); r.status != http.StatusNotFound {
		t.Fatalf("download before DONE: %d %s", r.status, r.body)
	}

	// Process B takes the job over (with larger chunks) and finishes it.
	poolB := anotherPool(t, e)
	b := &jobrun.Worker{Client: poolB.Client, Dialect: poolB.Dialect, Logger: quietLogger, ID: "process-B", BatchSize: 300}
	if worked, err := b.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("process B: %v %v", worked, err)
	}
	done := must(t, e.Do(http.MethodGet, "/v1/exports/"+id, nil, app), http.StatusOK)
	if done["status"] != "DONE" {
		t.Fatalf("export: %v", done)
	}
	resumed := getExport(t, done["result"].(map[string]any)["url"].(string))
	checkExportCSV(t, resumed.body, n)
	job = e.DB.Client.AsyncAction.Query().Where(asyncaction.ExportID(id)).OnlyX(systemCtx())
	if job.Done != n || job.Attempts != 2 || job.Status != asyncaction.StatusDONE {
		t.Fatalf("job: done %d attempts %d status %s", job.Done, job.Attempts, job.Status)
	}
	if r := getExport(t, e.Server.URL+forged); r.status != http.StatusOK || r.body != resumed.body {
		t.Fatalf("the earlier link after DONE: %d", r.status)
	}

	// An uninterrupted export of the same transactions gives the same bytes.
	again := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-INT/transactions/export", params, app), http.StatusOK)["id"].(string)
	if worked, err := b.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("second export: %v %v", worked, err)
	}
	done = must(t, e.Do(http.MethodGet, "/v1/exports/"+again, nil, app), http.StatusOK)
	if whole := getExport(t, done["result"].(map[string]any)["url"].(string)); whole.body != resumed.body {
		t.Fatal("the resumed export differs from an uninterrupted one")
	}
}

// TestExportRetention: the file of an export DONE more than
// graph.ExportRetention ago is deleted when the next export job runs; the
// export stays DONE but offers no download any more.
func TestExportRetention(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-OLD", 0)
	manyTransactions(t, e, "GIFT-OLD", 10)
	export1 := func() string {
		t.Helper()
		id := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-OLD/transactions/export", nil, app), http.StatusOK)["id"].(string)
		if worked, err := e.Worker.RunOnce(context.Background()); !worked || err != nil {
			t.Fatalf("RunOnce: %v %v", worked, err)
		}
		return id
	}
	old, recent := export1(), export1()
	// old finished eight days ago.
	e.DB.Client.Export.UpdateOneID(old).SetUpdatedAt(time.Now().Add(-exportpkg.ExportRetention - 24*time.Hour)).ExecX(systemCtx())
	link := must(t, e.Do(http.MethodGet, "/v1/exports/"+old, nil, app), http.StatusOK)["result"].(map[string]any)["url"].(string)

	fresh := export1() // its job sweeps the expired file
	for _, id := range []string{recent, fresh} {
		if r := getExport(t, must(t, e.Do(http.MethodGet, "/v1/exports/"+id, nil, app), http.StatusOK)["result"].(map[string]any)["url"].(string)); r.status != http.StatusOK {
			t.Fatalf("download of %s: %d", id, r.status)
		}
	}
	if c := e.DB.Client.ExportChunk.Query().Where(exportchunk.ExportID(old)).CountX(systemCtx()); c != 0 {
		t.Fatalf("%d chunks of the expired export left", c)
	}
	got := must(t, e.Do(http.MethodGet, "/v1/exports/"+old, nil, app), http.StatusOK)
	if got["status"] != "DONE" || got["result"] != nil {
		t.Fatalf("expired export: %v", got)
	}
	if r := getExport(t, link); r.status != http.StatusNotFound {
		t.Fatalf("download of the expired export: %d", r.status)
	}
}

// TestExportNULCharacters: a NUL character (which only SQLite stores;
// PostgreSQL refuses it on input) is exported as U+FFFD, so the file is
// text every database can hold and reads the same everywhere.
func TestExportNULCharacters(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-NUL", 0)
	r := balance(t, e, app, "GIFT-NUL", map[string]any{"amount": 5, "reason": "a\x00b", "source_id": "s\x00"})
	if entdbtest.IsPostgres() {
		wantError(t, r, http.StatusBadRequest, "invalid_payload", "NUL")
		t.Skip("PostgreSQL stores no NUL characters to export")
	}
	must(t, r, http.StatusOK)
	id := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-NUL/transactions/export",
		map[string]any{"parameters": map[string]any{"fields": []string{"reason", "source_id", "amount"}}}, app), http.StatusOK)["id"].(string)
	done := waitForExport(t, e, app, id)
	got := getExport(t, done["result"].(map[string]any)["url"].(string))
	if want := "reason,source_id,amount\na\uFFFDb,s\uFFFD,5\n"; got.status != http.StatusOK || got.body != want {
		t.Fatalf("download %d: %q, want %q", got.status, got.body, want)
	}
}

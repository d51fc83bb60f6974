package job

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CSV files streamed from the request (bulk.go's other input): the
// request stores the file (upload.go) while counting its rows, in the
// transaction that creates the job (StoreCSV); the job streams it back a
// batch at a time, skipping the rows of the batches committed before when
// it resumes (StreamCSV). Neither side holds more than a chunk of the file
// and a batch of rows, whatever the file's size.

// MaxCSVRowBytes bounds one CSV row (its fields together): a longer row
// is reported as failed, not imported.
const MaxCSVRowBytes = 1 << 20

// CSVRow is one data row of a streamed CSV: its fields (a copy), its line
// in the file, its number among the data rows (from 1; the header row not
// counted) and, when it cannot be used as it is, why.
type CSVRow struct {
	Line    int
	Row     int
	Fields  []string
	Problem string
}

// CSVHeader reads and checks a file's header row and returns its column
// names (a caller-facing error refuses the file).
type CSVHeader func(r *csv.Reader) ([]string, error)

// CSVReader reads an import's CSV leniently: rows may have fewer or more
// fields than the header (reported per row), quotes are lenient.
func CSVReader(r io.Reader) *csv.Reader {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord, cr.LazyQuotes, cr.TrimLeadingSpace, cr.ReuseRecord = -1, true, true, true
	return cr
}

// UploadError is a caller-facing error for a file that cannot be read;
// errors of the request body (too large, cut off) keep their own form.
func UploadError(err error) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	var parse *csv.ParseError
	if errors.As(err, &parse) {
		return apperr.InvalidPayload("The CSV file cannot be read: %v", err)
	}
	return err
}

// StoreCSV stores file as job j's upload, checks its header and counts
// its rows (at most maxRows; at least one), and sets the job's total. It
// must run in the transaction that created j: the file, its count and the
// job commit together.
func StoreCSV(ctx context.Context, j *ent.AsyncAction, file io.Reader, header CSVHeader, maxRows int) (*ent.AsyncAction, error) {
	upload := NewUploadWriter(ctx, j.ID)
	r := CSVReader(io.TeeReader(file, upload))
	if _, err := header(r); err != nil {
		return nil, err
	}
	rows := 0
	for {
		_, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, csv.ErrFieldCount) {
			return nil, UploadError(err)
		}
		if rows++; rows > maxRows {
			return nil, apperr.InvalidPayload("The CSV file may hold at most %d rows", maxRows)
		}
	}
	if err := upload.Close(); err != nil {
		return nil, err
	}
	if rows == 0 {
		return nil, apperr.InvalidPayload("The CSV file has no rows after its header")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return c.AsyncAction.UpdateOne(j).SetTotal(rows).Save(ctx)
}

// StreamCSV reads job j's stored file after the rows of the batches
// committed before and hands commit batches of up to batch rows; commit
// writes a batch in one committed transaction (CommitBatch) and returns
// how many rows it consumed.
func StreamCSV(ctx context.Context, j *ent.AsyncAction, header CSVHeader, batch int,
	commit func(ctx context.Context, header []string, rows []CSVRow) (int, error)) error {
	r := CSVReader(OpenUpload(ctx, j.ID))
	cols, err := header(r)
	if err != nil {
		return fmt.Errorf("job %s: reading the file's header: %w", j.ID, err)
	}
	for skip := 0; skip < j.Done; skip++ {
		if _, err := r.Read(); err != nil && !errors.Is(err, csv.ErrFieldCount) {
			return fmt.Errorf("job %s: skipping imported rows: %w", j.ID, err)
		}
	}
	for done := j.Done; done < j.Total; {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows := make([]CSVRow, 0, min(batch, j.Total-done))
		for len(rows) < cap(rows) {
			rec, err := r.Read()
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("job %s: the file ends after %d of %d rows", j.ID, done+len(rows), j.Total)
			}
			if err != nil && !errors.Is(err, csv.ErrFieldCount) {
				return fmt.Errorf("job %s: reading row %d: %w", j.ID, done+len(rows)+1, err)
			}
			line, _ := r.FieldPos(0)
			rows = append(rows, csvRow(rec, line, done+len(rows)+1))
		}
		n, err := commit(ctx, cols, rows)
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// csvRow copies a record read with ReuseRecord, or reports it too large.
func csvRow(rec []string, line, row int) CSVRow {
	size := 0
	for _, f := range rec {
		size += len(f)
	}
	if size > MaxCSVRowBytes {
		return CSVRow{Line: line, Row: row, Problem: fmt.Sprintf("The row is larger than %d bytes", MaxCSVRowBytes)}
	}
	return CSVRow{Line: line, Row: row, Fields: append([]string(nil), rec...)}
}

// DeleteUploadWhenFinished is a Handler.Finished that removes the job's
// stored file once the job ends.
func DeleteUploadWhenFinished(ctx context.Context, jobID string, _ error) error {
	return DeleteUpload(ctx, jobID)
}

// CSVColumns reads a header row into column names: trimmed, a BOM
// dropped, each mapped by normalize (e.g. to a standard column's name);
// names must be unique and not empty, and required ones present.
func CSVColumns(r *csv.Reader, normalize func(string) string, required ...string) ([]string, error) {
	rec, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, apperr.InvalidPayload("The CSV file must start with a header row")
	}
	if err != nil {
		return nil, UploadError(err)
	}
	header := make([]string, len(rec))
	seen := map[string]bool{}
	for i, col := range rec {
		col = normalize(strings.TrimSpace(strings.TrimPrefix(col, "\ufeff")))
		if col == "" || seen[col] {
			return nil, apperr.InvalidPayload("Header column %d must be a unique, non-empty name, got %q", i+1, col)
		}
		header[i], seen[col] = col, true
	}
	for _, col := range required {
		if !seen[col] {
			return nil, apperr.InvalidPayload("The CSV file must have a %s column", strings.ToUpper(col[:1])+col[1:])
		}
	}
	return header, nil
}

// ReportCSVRow is the outcome of a row read badly: nil when the row has
// the header's fields and no problem, else a failure entry (entry adds
// the reason to the row's identifying members).
func ReportCSVRow(header []string, r CSVRow, entry func(reason string) map[string]any) *RowOutcome {
	switch {
	case r.Problem != "":
		o := Failure(entry(r.Problem))
		return &o
	case len(r.Fields) != len(header):
		o := Failure(entry(fmt.Sprintf("The row has %d fields; the header has %d", len(r.Fields), len(header))))
		return &o
	}
	return nil
}

// RunCSVRows handles job j's stored file a row at a time with each,
// BulkBatch rows per committed transaction, and lists the entries of the
// rows that failed under key in the job's result (StreamCSV, RunRows).
func RunCSVRows(ctx context.Context, w *Worker, j *ent.AsyncAction, header CSVHeader, key string,
	each func(ctx context.Context, header []string, r CSVRow) (RowOutcome, error)) error {
	return StreamCSV(ctx, j, header, BulkBatch, func(ctx context.Context, cols []string, rows []CSVRow) (int, error) {
		return w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
			return handleRows(ctx, j.ID, key, len(rows), func(ctx context.Context, k int) (RowOutcome, error) {
				return each(ctx, cols, rows[k])
			})
		})
	})
}

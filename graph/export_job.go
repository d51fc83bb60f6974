package graph

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// ExportChunkSize is the size an export file's chunk grows to (give or
// take one CSV line) before the job commits it; a chunk also ends after
// the worker's BatchSize rows.
const ExportChunkSize = 512 << 10

// ExportRetention is how long an export's file is kept once the export is
// DONE. After it, the next export job (in any process) deletes the file's
// chunks; the export stays DONE, without a download link.
const ExportRetention = 7 * 24 * time.Hour

// exportSweepBatch bounds the exports whose files one job start deletes.
const exportSweepBatch = 50

// maxExportBatch bounds the transactions read per query (the worker's
// BatchSize, if smaller, applies).
const maxExportBatch = 2000

// runExport writes an export's CSV into the database: transactions are
// read in keyset pages of (created_at, id) and written as chunks of whole
// lines. Each chunk is committed with the job's progress (and the lease
// check), and records the position of its last row, so a job that was
// interrupted resumes after its last committed chunk: no row missing, none
// repeated. The last chunk commits with the export's DONE, row count and
// size; until then downloads are refused.
func (w *Worker) runExport(ctx context.Context, job *ent.AsyncAction) error {
	if job.ExportID == nil {
		return fmt.Errorf("job %s names no export", job.ID)
	}
	c := w.Client
	exp, err := c.Export.Get(ctx, *job.ExportID)
	if err != nil {
		return fmt.Errorf("reading export: %w", err)
	}
	if exp.Status == export.StatusDONE {
		return nil // done, but the job's end was not recorded
	}
	w.sweepExportFiles(ctx)
	if _, err := w.commitBatch(ctx, job, func(ctx context.Context) (int, error) {
		return 0, ent.FromContext(ctx).Export.UpdateOne(exp).SetStatus(export.StatusIN_PROGRESS).Exec(ctx)
	}); err != nil {
		return err
	}
	fields := TransactionExportFields
	if fs, ok := exp.Parameters["fields"].([]any); ok {
		fields = nil
		for _, f := range fs {
			fields = append(fields, fmt.Sprint(f))
		}
	}
	ch := &exportChunker{w: w, job: job, exp: exp, maxRows: w.BatchSize, lz4: chunkLZ4Available(ctx, c, w.Dialect)}
	if err := ch.resume(ctx); err != nil {
		return err
	}
	err = ch.writeTransactions(ctx, fields, exp.Parameters["order"] != "created_at", min(w.BatchSize, maxExportBatch))
	// Never leave a commit running behind the job's end (or its release).
	if werr := ch.wait(); err == nil {
		err = werr
	}
	return err
}

// exportChunker cuts an export's CSV into chunks and commits them.
type exportChunker struct {
	w       *Worker
	job     *ent.AsyncAction
	exp     *ent.Export
	maxRows int
	lz4     bool // store chunks compressed with lz4 (export_compression.go)

	// The state after the chunks committed or being committed: the next
	// chunk's seq and offset, the rows so far and the keyset position of
	// the last of them (when rows > 0).
	seq    int
	offset int64
	rows   int
	lastAt time.Time
	lastID string

	// The chunk being written: its CSV, its rows and its last position.
	buf     []byte
	pending int
	posAt   time.Time
	posID   string

	// inflight reports the end of the commit running in the background.
	inflight chan error
}

// resume reads where the export's committed chunks end.
func (ch *exportChunker) resume(ctx context.Context) error {
	ch.buf = make([]byte, 0, ExportChunkSize+64<<10)
	last, err := ch.w.Client.ExportChunk.Query().Where(exportchunk.ExportID(ch.exp.ID)).
		Order(exportchunk.BySeq(entsql.OrderDesc())).
		Select(exportchunk.FieldSeq, exportchunk.FieldByteOffset, exportchunk.FieldSize, exportchunk.FieldRows,
			exportchunk.FieldLastCreatedAt, exportchunk.FieldLastID).
		First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading export chunks: %w", err)
	}
	ch.seq, ch.offset, ch.rows = last.Seq+1, last.ByteOffset+int64(last.Size), last.Rows
	if last.LastCreatedAt != nil && last.LastID != nil {
		ch.lastAt, ch.lastID = *last.LastCreatedAt, *last.LastID
	}
	return nil
}

// writeTransactions streams the export's transactions as CSV rows (the
// header first, unless a chunk holds it already) after the committed
// position, committing a chunk whenever one is full, and the last one with
// the export's DONE. Three things overlap: a goroutine reads the next page
// of rows (exportSource.read) while this one writes the current page's
// lines, and the previous chunk commits in the background (commit).
func (ch *exportChunker) writeTransactions(ctx context.Context, names []string, desc bool, pageSize int) error {
	if ch.seq == 0 {
		ch.buf = appendCSVHeader(ch.buf, names)
	}
	voucherID := *ch.exp.VoucherID
	src, err := newExportSource(ctx, ch.w.Client, ch.job.ProjectID, voucherID, strings.HasPrefix(voucherID, pulid.PrefixCard), desc)
	if err != nil {
		return err
	}
	rctx, stop := context.WithCancel(ctx)
	pages := make(chan exportPage, 1)
	go src.read(rctx, ch.rows > 0, ch.lastAt, ch.lastID, pageSize, pages)
	defer func() { // stop the reader and wait for it to let go of the database
		stop()
		for range pages {
		}
	}()
	fields := exportFields(names)
	for p := range pages {
		if p.err != nil {
			return fmt.Errorf("reading transactions: %w", p.err)
		}
		for i := range p.rows {
			t := &p.rows[i]
			if ch.buf, err = appendExportLine(ch.buf, fields, t); err != nil {
				return fmt.Errorf("writing export: %w", err)
			}
			ch.pending++
			ch.posAt, ch.posID = t.CreatedAt, t.ID
			if len(ch.buf) >= ExportChunkSize || ch.pending >= ch.maxRows {
				if err := ch.commit(ctx, false); err != nil {
					return err
				}
			}
		}
		if p.last {
			return ch.commit(ctx, true)
		}
	}
	return ctx.Err() // the reader stopped early: ctx ended
}

// commit hands the chunk being written to a transaction of its own that
// stores it (if it holds anything) with the job's progress; the last
// commit also marks the export DONE with its row count and size. One
// commit runs in the background while the next chunk is read and written
// (the database's work on a chunk overlaps the worker's on the next);
// commit waits for the previous one first, and the last commit returns
// once everything has committed. The chunker's state advances as if the
// commit will succeed: if one fails, the job stops with its error and a
// resumed job starts from what the database holds.
func (ch *exportChunker) commit(ctx context.Context, last bool) error {
	if err := ch.wait(); err != nil {
		return err
	}
	data := exportText(ch.buf)
	seq, offset, rows, size, pending := ch.seq, ch.offset, ch.rows+ch.pending, len(data), ch.pending
	store := size > 0
	var lastAt *time.Time
	var lastID *string
	if pending > 0 {
		at, id := ch.posAt, ch.posID
		lastAt, lastID = &at, &id
	}
	chunks := seq
	if store {
		chunks++
	}
	write := func() error {
		_, err := ch.w.commitBatch(ctx, ch.job, func(ctx context.Context) (int, error) {
			c := ent.FromContext(ctx)
			if store && ch.lz4 {
				if err := compressChunksWithLZ4(ctx, c); err != nil {
					return 0, err
				}
			}
			if store {
				err := c.ExportChunk.Create().SetExportID(ch.exp.ID).SetSeq(seq).SetData(data).
					SetByteOffset(offset).SetSize(size).SetRows(rows).
					SetNillableLastCreatedAt(lastAt).SetNillableLastID(lastID).Exec(ctx)
				if err != nil {
					return 0, fmt.Errorf("storing export chunk: %w", err)
				}
			}
			if last {
				err := c.Export.UpdateOne(ch.exp).SetStatus(export.StatusDONE).SetRows(rows).
					SetSize(offset + int64(size)).SetChunks(chunks).Exec(ctx)
				if err != nil {
					return 0, fmt.Errorf("finishing export: %w", err)
				}
			}
			return pending, nil
		})
		return err
	}
	if store {
		ch.seq, ch.offset = seq+1, offset+int64(size)
	}
	if pending > 0 {
		ch.rows, ch.lastAt, ch.lastID = rows, ch.posAt, ch.posID
	}
	ch.buf = ch.buf[:0]
	ch.pending = 0
	if last {
		return write()
	}
	done := make(chan error, 1)
	ch.inflight = done
	go func() { done <- write() }()
	return nil
}

// wait returns once the commit in flight (if any) has ended, with its error.
func (ch *exportChunker) wait() error {
	if ch.inflight == nil {
		return nil
	}
	err := <-ch.inflight
	ch.inflight = nil
	return err
}

// exportText is a chunk's CSV as storable text: PostgreSQL text holds
// neither NUL characters nor invalid UTF-8, so both become U+FFFD (on
// every database, so files do not depend on it). Only SQLite can hold
// such values in the first place (PostgreSQL refuses them on input); the
// CSV writer quotes neither a NUL nor U+FFFD, so replacing them in the
// chunk equals replacing them in each cell.
func exportText(b []byte) string {
	if bytes.IndexByte(b, 0) < 0 && utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(strings.ReplaceAll(string(b), "\x00", "\uFFFD"), "\uFFFD")
}

// sweepExportFiles deletes the files (chunks) of exports DONE more than
// ExportRetention ago, a bounded number per call, across projects. It runs
// when an export job starts; a failure is only logged.
func (w *Worker) sweepExportFiles(ctx context.Context) {
	cutoff := time.Now().UTC().Add(-ExportRetention)
	err := InTx(viewer.NewSystemContext(ctx), func(ctx context.Context) error {
		c := ent.FromContext(ctx)
		q := c.Export.Query().Where(export.StatusEQ(export.StatusDONE), export.SizeNotNil(), export.UpdatedAtLT(cutoff)).
			Limit(exportSweepBatch)
		if w.Dialect == dialect.Postgres {
			q.ForUpdate(entsql.WithLockAction(entsql.SkipLocked))
		}
		ids, err := q.IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := c.ExportChunk.Delete().Where(exportchunk.ExportIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		return c.Export.Update().Where(export.IDIn(ids...)).ClearSize().ClearChunks().Exec(ctx)
	})
	if err != nil {
		w.Logger.Warn("deleting expired export files", "worker", w.ID, "error", err.Error())
	}
}

// failExport marks the export of a failed job as ERROR and deletes what
// it had written, in the transaction that ends the job.
func failExport(ctx context.Context, c *ent.Client, job *ent.AsyncAction, failure error) error {
	if job.ExportID == nil {
		return nil
	}
	if _, err := c.ExportChunk.Delete().Where(exportchunk.ExportID(*job.ExportID)).Exec(ctx); err != nil {
		return err
	}
	return c.Export.Update().Where(export.ID(*job.ExportID)).SetStatus(export.StatusERROR).
		SetFailureReason(failure.Error()).ClearSize().ClearChunks().Exec(ctx)
}

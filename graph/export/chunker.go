package export

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// The export job's writer (runExport, job.go): it cuts the CSV into
// chunks and commits each with the job's progress.

// exportChunker cuts an export's CSV into chunks and commits them.
type exportChunker struct {
	w       *jobrun.Worker
	job     *ent.AsyncAction
	exp     *ent.Export
	maxRows int
	lz4     bool // store chunks compressed with lz4 (compression.go)

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
	if src.where, err = subjectWindow(ch.exp.Parameters, "created_at", timeCol("created_at"), ch.job.ProjectID); err != nil {
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
		_, err := ch.w.CommitBatch(ctx, ch.job, func(ctx context.Context) (int, error) {
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

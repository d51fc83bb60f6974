package job

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/uploadchunk"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Uploaded files of import jobs live in the database as chunks
// (ent/schema/upload_chunk.go): written once by the request that creates
// the job, streamed by the job (from the start again when it resumes), and
// deleted when the job ends. Neither side holds more than a chunk.

// uploadChunkBytes is the target size of one stored chunk.
const uploadChunkBytes = 1 << 20

// UploadWriter stores an uploaded file for a job, a chunk at a time, in the
// caller's transaction. Write it like a file, then Close it.
type UploadWriter struct {
	ctx   context.Context
	jobID string
	seq   int
	buf   bytes.Buffer
	err   error
}

// NewUploadWriter starts the file of job jobID.
func NewUploadWriter(ctx context.Context, jobID string) *UploadWriter {
	return &UploadWriter{ctx: ctx, jobID: jobID}
}

// Write buffers p and stores every full chunk.
func (u *UploadWriter) Write(p []byte) (int, error) {
	if u.err != nil {
		return 0, u.err
	}
	u.buf.Write(p)
	for u.buf.Len() >= uploadChunkBytes && u.err == nil {
		u.err = u.flush(cutPoint(u.buf.Bytes()))
	}
	return len(p), u.err
}

// Close stores what is left.
func (u *UploadWriter) Close() error {
	if u.err == nil && u.buf.Len() > 0 {
		u.err = u.flush(u.buf.Len())
	}
	return u.err
}

// cutPoint is where a full buffer is cut: after its last line end in the
// second half, else at a character boundary near the target size.
func cutPoint(b []byte) int {
	n := min(len(b), uploadChunkBytes)
	if i := bytes.LastIndexByte(b[:n], '\n'); i >= n/2 {
		return i + 1
	}
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// flush stores the buffer's first n bytes as the next chunk, as valid
// UTF-8 text without NUL characters.
func (u *UploadWriter) flush(n int) error {
	text := strings.ToValidUTF8(string(u.buf.Next(n)), "\uFFFD")
	text = strings.ReplaceAll(text, "\x00", "\uFFFD")
	c, err := store.Client(u.ctx)
	if err != nil {
		return err
	}
	if err := c.UploadChunk.Create().SetJobID(u.jobID).SetSeq(u.seq).SetData(text).Exec(u.ctx); err != nil {
		return fmt.Errorf("storing uploaded file: %w", err)
	}
	u.seq++
	return nil
}

// OpenUpload reads job jobID's file from its first chunk, loading one chunk
// at a time.
func OpenUpload(ctx context.Context, jobID string) io.Reader {
	return &uploadReader{ctx: ctx, jobID: jobID}
}

type uploadReader struct {
	ctx   context.Context
	jobID string
	seq   int
	cur   strings.Reader
	done  bool
}

// Read implements io.Reader.
func (r *uploadReader) Read(p []byte) (int, error) {
	for r.cur.Len() == 0 {
		if r.done {
			return 0, io.EOF
		}
		c, err := store.Client(r.ctx)
		if err != nil {
			return 0, err
		}
		chunk, err := c.UploadChunk.Query().
			Where(uploadchunk.JobID(r.jobID), uploadchunk.Seq(r.seq)).Only(r.ctx)
		if ent.IsNotFound(err) {
			r.done = true
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("reading uploaded file: %w", err)
		}
		r.cur.Reset(chunk.Data)
		r.seq++
	}
	return r.cur.Read(p)
}

// DeleteUpload removes job jobID's file.
func DeleteUpload(ctx context.Context, jobID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if _, err := c.UploadChunk.Delete().Where(uploadchunk.JobID(jobID)).Exec(ctx); err != nil {
		return fmt.Errorf("deleting uploaded file: %w", err)
	}
	return nil
}

package export

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/export"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
)

// DownloadLinkLifetime is how long an export's download link works.
const DownloadLinkLifetime = time.Hour

// DownloadPath is the path (with its signed, expiring token) that
// downloads a finished export without application keys; "" until DONE,
// and again once the file has expired (see ExportRetention).
func DownloadPath(exp *ent.Export, now time.Time) string {
	if exp.Status != export.StatusDONE || exp.Size == nil {
		return ""
	}
	expires := strconv.FormatInt(now.Add(DownloadLinkLifetime).Unix(), 10)
	return "/v1/exports/" + url.PathEscape(exp.ID) + "/download?token=" + expires + "." + downloadSig(exp, expires)
}

func downloadSig(exp *ent.Export, expires string) string {
	m := hmac.New(sha256.New, []byte(exp.DownloadSecret))
	m.Write([]byte(exp.ID + "." + expires))
	return hex.EncodeToString(m.Sum(nil))
}

// DownloadPathOf is the download path of a finished export, or nil.
func DownloadPathOf(_ context.Context, exp *ent.Export) (*string, error) {
	p := DownloadPath(exp, time.Now())
	if p == "" {
		return nil, nil
	}
	return &p, nil
}

// ExportDownload is a finished export's CSV file, read from the database
// one chunk at a time (Next), so any server process serves it with the
// same bytes. The next chunk is read while the current one is sent, so
// memory holds at most two chunks whatever the file's size.
type ExportDownload struct {
	// Export is the export the file belongs to.
	Export *ent.Export
	// Size is the file's length in bytes.
	Size int64

	client *ent.Client
	chunks int
	next   int // the next chunk to read
	read   int64
	ahead  chan chunkRead // the read of chunk next, when started
}

type chunkRead struct {
	data string
	err  error
}

// OpenExportDownload checks a download link's token and returns the
// export's file; it reads across projects (the link is the credential), so
// an unknown export, a wrong or expired token, an export that is not DONE
// and one whose file has expired are all one 404.
func OpenExportDownload(ctx context.Context, c *ent.Client, id, token string, now time.Time) (*ExportDownload, error) {
	notFound := apperr.NotFound("export", id)
	exp, err := c.Export.Get(viewer.NewSystemContext(ctx), id)
	if ent.IsNotFound(err) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	expires, sig, ok := strings.Cut(token, ".")
	unix, perr := strconv.ParseInt(expires, 10, 64)
	if !ok || perr != nil || !hmac.Equal([]byte(sig), []byte(downloadSig(exp, expires))) ||
		now.Unix() > unix || exp.Status != export.StatusDONE || exp.Size == nil || exp.Chunks == nil {
		return nil, notFound
	}
	return &ExportDownload{Export: exp, Size: *exp.Size, client: c, chunks: *exp.Chunks}, nil
}

// Next returns the file's next chunk, io.EOF after the last. A chunk that
// is missing (the file expired meanwhile) or a file of another length
// than recorded is an error. The read of the following chunk starts
// before Next returns; it ends by itself (ctx bounds it) if Next is not
// called again.
func (d *ExportDownload) Next(ctx context.Context) (string, error) {
	if d.next >= d.chunks {
		if d.read != d.Size {
			return "", fmt.Errorf("export %s: read %d bytes of %d", d.Export.ID, d.read, d.Size)
		}
		return "", io.EOF
	}
	if d.ahead == nil {
		d.ahead = d.fetch(ctx, d.next)
	}
	r := <-d.ahead
	d.ahead = nil
	if r.err != nil {
		return "", r.err
	}
	d.next++
	d.read += int64(len(r.data))
	if d.next < d.chunks {
		d.ahead = d.fetch(ctx, d.next)
	}
	return r.data, nil
}

// fetch reads chunk seq in the background.
func (d *ExportDownload) fetch(ctx context.Context, seq int) chan chunkRead {
	out := make(chan chunkRead, 1)
	go func() {
		ch, err := d.client.ExportChunk.Query().
			Where(exportchunk.ExportID(d.Export.ID), exportchunk.Seq(seq)).
			Select(exportchunk.FieldData).
			Only(viewer.NewSystemContext(ctx))
		if err != nil {
			out <- chunkRead{err: fmt.Errorf("reading export %s chunk %d: %w", d.Export.ID, seq, err)}
			return
		}
		out <- chunkRead{data: ch.Data}
	}()
	return out
}

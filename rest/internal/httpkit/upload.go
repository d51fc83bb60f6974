package httpkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
)

// MaxUploadBytes bounds a streamed CSV upload (about 20 million short
// codes); the file is never held in memory (graph/job/upload.go).
const MaxUploadBytes = 512 << 20

// StreamCSV streams the multipart field "file" (at most limit bytes) into
// the job schedule creates, in one transaction; status (202 unless the
// reference answers otherwise) with the async action (ScheduledJob).
func StreamCSV(c *gin.Context, limit int64, status int, schedule func(ctx context.Context, file graphql.Upload) (*ent.AsyncAction, error)) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	part, err := uploadPart(c, "file")
	if err != nil {
		RenderError(c, err)
		return
	}
	file := graphql.Upload{File: forwardOnly{uploadReadErrors{part}}, Filename: part.FileName(),
		ContentType: part.Header.Get("Content-Type")}
	ScheduledJob(c, status, func(ctx context.Context) (*ent.AsyncAction, error) { return schedule(ctx, file) })
}

// uploadPart is the multipart/form-data part named field, unread: the
// caller streams it.
func uploadPart(c *gin.Context, field string) (*multipart.Part, error) {
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return nil, apperr.InvalidPayload("The request must be multipart/form-data with the file in the field %q", field)
	}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apperr.InvalidPayload("Payload should have required property '%s'", field)
		}
		if err != nil {
			return nil, readError(err)
		}
		if p.FormName() == field {
			return p, nil
		}
	}
}

// uploadReadErrors turns the errors of reading the request body into the
// service's: 413 past the limit, 400 for a body cut off.
type uploadReadErrors struct{ io.Reader }

// Read implements io.Reader.
func (u uploadReadErrors) Read(p []byte) (int, error) {
	n, err := u.Reader.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, readError(err)
	}
	return n, err
}

// readError is the error of a request body that could not be read.
func readError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return apperr.New(http.StatusRequestEntityTooLarge, "payload_too_large", "Payload too large",
			fmt.Sprintf("The request body must be at most %d bytes", tooLarge.Limit))
	}
	return apperr.New(http.StatusBadRequest, "invalid_payload", "Invalid payload", "The request body could not be read")
}

// forwardOnly is a stream passed where an io.ReadSeeker is expected (a
// graphql.Upload): the import reads it once, from the start.
type forwardOnly struct{ io.Reader }

// Seek implements io.Seeker for the one position a stream is at.
func (forwardOnly) Seek(int64, int) (int64, error) {
	return 0, errors.New("an upload stream cannot seek")
}

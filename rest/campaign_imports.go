package rest

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
	"github.com/promoengine/promoengine/graph/campaign"
)

// maxUploadBytes bounds a streamed CSV upload (about 20 million short
// codes); the file is never held in memory (graph/job/upload.go).
const maxUploadBytes = 512 << 20

// registerCampaignImports registers the imports of existing codes into a
// campaign (docs/imports.md).
func registerCampaignImports(v1 *gin.RouterGroup, auth gin.HandlerFunc, h campaignHandlers) {
	v1.POST("/campaigns/:campaignId/import", auth, h.importVouchers)
	v1.POST("/campaigns/:campaignId/importCSV", auth, h.importVouchersCSV)
}

// importVouchers serves POST /v1/campaigns/{campaignId}/import: 202 with the
// async action (CAMPAIGN.VOUCHERS_IMPORT) importing the array of codes.
func (h campaignHandlers) importVouchers(c *gin.Context) {
	var items []*campaign.CampaignImportItem
	if err := decodeBulkBody(c, &items); err != nil {
		renderError(c, err)
		return
	}
	job, err := inTx(c, func(ctx context.Context) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportCampaignVouchers(ctx, c.Param("campaignId"), items)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusAccepted, gin.H{"async_action_id": job.ID})
}

// importVouchersCSV serves POST /v1/campaigns/{campaignId}/importCSV: the
// multipart field "file" is streamed into the job (CAMPAIGN.VOUCHERS_IMPORT_CSV)
// as it arrives; 200 with the async action, as the reference answers.
func (h campaignHandlers) importVouchersCSV(c *gin.Context) {
	streamCSV(c, maxUploadBytes, http.StatusOK, func(ctx context.Context, file graphql.Upload) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportCampaignVouchersCSV(ctx, c.Param("campaignId"), file)
	})
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
// service's: 413 past maxUploadBytes, 400 for a body cut off.
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

package catalog

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// registerCatalogImports mounts the CSV imports (multipart, field file;
// 200 {async_action_id}, as the real service answers these).
func registerCatalogImports(v1 *gin.RouterGroup, auth gin.HandlerFunc, h productHandlers) {
	v1.POST("/products/importCSV", auth, h.importProducts)
	v1.POST("/skus/importCSV", auth, h.importSkus)
}

// importProducts serves POST /v1/products/importCSV (PRODUCTS.IMPORT_CSV).
func (h productHandlers) importProducts(c *gin.Context) {
	h.importCSV(c, func(ctx context.Context, file string) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportProductsCSV(ctx, file)
	})
}

// importSkus serves POST /v1/skus/importCSV (SKUS.IMPORT_CSV).
func (h productHandlers) importSkus(c *gin.Context) {
	h.importCSV(c, func(ctx context.Context, file string) (*ent.AsyncAction, error) {
		return h.root.Mutation().ImportSkusCSV(ctx, file)
	})
}

// importCSV reads the uploaded file (at most httpkit.MaxBulkBodyBytes) and
// schedules its import.
func (h productHandlers) importCSV(c *gin.Context, schedule func(ctx context.Context, file string) (*ent.AsyncAction, error)) {
	file, err := uploadedFile(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	job, err := httpkit.InTx(c, func(ctx context.Context) (*ent.AsyncAction, error) { return schedule(ctx, file) })
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"async_action_id": job.ID})
}

// uploadedFile is the text of the multipart field "file".
func uploadedFile(c *gin.Context) (string, error) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, httpkit.MaxBulkBodyBytes)
	fh, err := c.FormFile("file")
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return "", apperr.New(http.StatusRequestEntityTooLarge, "payload_too_large", "Payload too large",
				"The request body must be at most 10485760 bytes")
		}
		return "", apperr.InvalidPayload("Payload should have required property 'file'")
	}
	f, err := fh.Open()
	if err != nil {
		return "", apperr.InvalidPayload("The uploaded file cannot be read")
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, httpkit.MaxBulkBodyBytes+1))
	if err != nil || len(b) > httpkit.MaxBulkBodyBytes {
		return "", apperr.InvalidPayload("The uploaded file cannot be read or is larger than 10 MB")
	}
	return string(b), nil
}

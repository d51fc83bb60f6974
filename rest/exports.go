package rest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/campaign"
	exportpkg "github.com/promoengine/promoengine/graph/export"
)

// exportHandlers serve voucher balances, transaction exports and their downloads.
type exportHandlers struct {
	vouchers voucherHandlers
}

type balanceBody struct {
	Amount        int64             `json:"amount"`
	Total         int64             `json:"total"`
	Balance       int64             `json:"balance"`
	Type          string            `json:"type"`
	Object        string            `json:"object"`
	RelatedObject map[string]string `json:"related_object"`
	OperationType string            `json:"operation_type"`
}

// balance serves POST /v1/vouchers/{code}/balance.
func (h exportHandlers) balance(c *gin.Context) {
	var in campaign.BalanceInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var b *campaign.VoucherBalance
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		b, err = h.vouchers.root.Mutation().AdjustVoucherBalance(ctx, c.Param("code"), in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, balanceBody{Amount: b.Amount, Total: b.Total, Balance: b.Balance, Type: b.Type,
		Object: "balance", RelatedObject: map[string]string{"type": "voucher", "id": b.VoucherID}, OperationType: "MANUAL"})
}

type exportBody struct {
	ID             string         `json:"id"`
	Object         string         `json:"object"`
	CreatedAt      timestamp      `json:"created_at"`
	Status         string         `json:"status"`
	Channel        string         `json:"channel"`
	ExportedObject string         `json:"exported_object"`
	Parameters     map[string]any `json:"parameters"`
	Result         map[string]any `json:"result"`
	UserID         *string        `json:"user_id"`
}

func (h exportHandlers) exportJSON(c *gin.Context, exp *ent.Export) exportBody {
	b := exportBody{ID: exp.ID, Object: "export", CreatedAt: timestamp(exp.CreatedAt), Status: string(exp.Status),
		Channel: exp.Channel, ExportedObject: exp.ExportedObject, Parameters: exp.Parameters, UserID: exp.UserID}
	if p := exportpkg.DownloadPath(exp, time.Now()); p != "" {
		b.Result = map[string]any{"url": h.vouchers.baseURL(c) + p}
	} else if exp.FailureReason != nil {
		b.Result = map[string]any{"error": map[string]any{"message": *exp.FailureReason}}
	}
	return b
}

// export serves POST /v1/vouchers/{code}/transactions/export.
func (h exportHandlers) export(c *gin.Context) {
	h.startExport(c, func(ctx context.Context, p *exportpkg.ExportParametersInput) (*ent.Export, error) {
		return h.vouchers.root.Mutation().ExportVoucherTransactions(ctx, c.Param("code"), p)
	})
}

// startExport decodes an export request's optional body, runs start in one
// transaction and answers with the scheduled export.
func (h exportHandlers) startExport(c *gin.Context, start func(context.Context, *exportpkg.ExportParametersInput) (*ent.Export, error)) {
	var in struct {
		Parameters *exportpkg.ExportParametersInput `json:"parameters"`
	}
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var exp *ent.Export
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		exp, err = start(ctx, in.Parameters)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.exportJSON(c, exp))
}

// get serves GET /v1/exports/{id}.
func (h exportHandlers) get(c *gin.Context) {
	exp, err := h.vouchers.root.Query().Export(c.Request.Context(), c.Param("id"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.exportJSON(c, exp))
}

// download serves GET /v1/exports/{id}/download?token=…: no application
// keys; the signed, expiring token is the credential. The file is read
// from the database one chunk at a time, so any server process serves it.
func (h exportHandlers) download(c *gin.Context) {
	ctx := c.Request.Context()
	dl, err := exportpkg.OpenExportDownload(ctx, ent.FromContext(ctx), c.Param("id"), c.Query("token"), time.Now())
	if err != nil {
		renderError(c, err)
		return
	}
	// The first chunk is read before the status line, so a failure there
	// is still an error response.
	data, err := dl.Next(ctx)
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Content-Type", "text/csv; charset=utf-8")
	c.Header("Content-Length", strconv.FormatInt(dl.Size, 10))
	c.Header("Content-Disposition", `attachment; filename="`+dl.Export.ID+`.csv"`)
	c.Header("Cache-Control", "no-store")
	c.Status(http.StatusOK)
	for {
		if _, err := io.WriteString(c.Writer, data); err != nil {
			return // the client went away
		}
		if data, err = dl.Next(ctx); err != nil {
			break
		}
	}
	if !errors.Is(err, io.EOF) && ctx.Err() == nil {
		// Too late for an error response: the short body (less than
		// Content-Length) tells the client the download failed.
		logger(c).ErrorContext(ctx, "export download failed", "request_id", requestID(c), "export", dl.Export.ID,
			"error", err.Error())
		c.Abort()
	}
}

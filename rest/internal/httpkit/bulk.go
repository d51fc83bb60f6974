package httpkit

import (
	"bytes"
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
)

// Bulk requests: their larger bodies and the jobs they schedule.

// MaxBulkBodyBytes bounds the body of the bulk voucher requests (the real
// service takes up to 10 MB there).
const MaxBulkBodyBytes = 10 << 20

// DecodeBulkBody is DecodeBody with the bulk requests' larger size limit.
func DecodeBulkBody(c *gin.Context, dst any) error {
	body, err := ReadBody(c, MaxBulkBodyBytes)
	if err != nil {
		return err
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] != '[' {
		return apperr.InvalidPayload("Payload must be a JSON array")
	}
	return DecodeJSON(body, dst)
}

// Accepted runs a mutation that schedules a job and answers 202 with its ID.
func Accepted(c *gin.Context, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	ScheduledJob(c, http.StatusAccepted, schedule)
}

// ScheduledJob runs a mutation that schedules a job in one transaction
// and answers status with its ID.
func ScheduledJob(c *gin.Context, status int, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	job, err := InTx(c, schedule)
	if err != nil {
		RenderError(c, err)
		return
	}
	c.PureJSON(status, gin.H{"async_action_id": job.ID})
}

package rest

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Transitional: rest's shared helpers now live in rest/internal/httpkit,
// the kit of the packages that move out of rest (rest/management first).
// These unexported names keep the files still in rest unchanged; each goes
// when the last area using it has moved, and this file with the last one
// (docs/architecture.md, "Splitting rest"). New code calls httpkit.

const (
	requestIDKey     = httpkit.RequestIDKey
	loggerKey        = httpkit.LoggerKey
	maxBodyBytes     = httpkit.MaxBodyBytes
	maxBulkBodyBytes = httpkit.MaxBulkBodyBytes
	maxUploadBytes   = httpkit.MaxUploadBytes
)

type (
	timestamp           = httpkit.Timestamp
	listEnvelope[T any] = httpkit.ListEnvelope[T]
)

func requestID(c *gin.Context) string                       { return httpkit.RequestID(c) }
func logger(c *gin.Context) *slog.Logger                    { return httpkit.Logger(c) }
func renderError(c *gin.Context, err error)                 { httpkit.RenderError(c, err) }
func renderGraphQLError(c *gin.Context, err error)          { httpkit.RenderGraphQLError(c, err) }
func decodeBody(c *gin.Context, dst any) error              { return httpkit.DecodeBody(c, dst) }
func readBody(c *gin.Context, limit int64) ([]byte, error)  { return httpkit.ReadBody(c, limit) }
func decodeJSON(body []byte, dst any) error                 { return httpkit.DecodeJSON(body, dst) }
func decodeError(body []byte, err error) error              { return httpkit.DecodeError(body, err) }
func optionalTime(t *time.Time) *timestamp                  { return httpkit.OptionalTime(t) }
func queryStrings(c *gin.Context, dsts map[string]**string) { httpkit.QueryStrings(c, dsts) }
func queryInt(c *gin.Context, name string) (*int, error)    { return httpkit.QueryInt(c, name) }

func limitAndPage(c *gin.Context) (limit, page *int, err error) { return httpkit.LimitAndPage(c) }

func newList[T any](items []T, total int) listEnvelope[T] { return httpkit.NewList(items, total) }

func inTx[T any](c *gin.Context, fn func(ctx context.Context) (T, error)) (T, error) {
	return httpkit.InTx(c, fn)
}

func orEmpty(m map[string]any) map[string]any      { return httpkit.OrEmpty(m) }
func decodeBulkBody(c *gin.Context, dst any) error { return httpkit.DecodeBulkBody(c, dst) }

func conditionFilters(q url.Values) ([]httpkit.ConditionFilter, bool, error) {
	return httpkit.ConditionFilters(q)
}

func accepted(c *gin.Context, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	httpkit.Accepted(c, schedule)
}

func scheduledJob(c *gin.Context, status int, schedule func(ctx context.Context) (*ent.AsyncAction, error)) {
	httpkit.ScheduledJob(c, status, schedule)
}

func answer[T any](c *gin.Context, status int, out T, err error, render func(T) any) {
	httpkit.Answer(c, status, out, err, render)
}

func queryTimes(c *gin.Context, dsts map[string]**time.Time) error {
	return httpkit.QueryTimes(c, dsts)
}
func forceParam(c *gin.Context) (*bool, error) { return httpkit.ForceParam(c) }

func queryList(c *gin.Context, name string) []string { return httpkit.QueryList(c, name) }

func streamCSV(c *gin.Context, limit int64, status int, schedule func(ctx context.Context, file graphql.Upload) (*ent.AsyncAction, error)) {
	httpkit.StreamCSV(c, limit, status, schedule)
}

func noEndpoint(c *gin.Context) { httpkit.NoEndpoint(c) }

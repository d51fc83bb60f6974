package httpkit

import (
	"log/slog"

	"github.com/gin-gonic/gin"
)

const (
	// RequestIDKey is the gin context key of the request's id (set by
	// rest's request middleware, shown in every error object).
	RequestIDKey = "promoengine.request_id"
	// LoggerKey is the gin context key of the request's logger.
	LoggerKey = "promoengine.logger"
)

// RequestID returns the request's id ("" before the middleware set it).
func RequestID(c *gin.Context) string { return c.GetString(RequestIDKey) }

// Logger returns the request's logger, or slog's default one.
func Logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(LoggerKey); ok {
		return l.(*slog.Logger)
	}
	return slog.Default()
}

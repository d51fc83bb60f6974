package rest

import (
	"strings"

	"github.com/gin-gonic/gin"
)

// maxChannelLength bounds the channel a caller names.
const maxChannelLength = 100

// namedChannel is the channel the caller named in the X-Voucherify-Channel
// header (the official SDKs send theirs), trimmed and bounded; voucher
// transactions record it as their source (viewer.TransactionSource).
func namedChannel(c *gin.Context) string {
	ch := strings.TrimSpace(c.GetHeader("X-Voucherify-Channel"))
	if len(ch) > maxChannelLength {
		ch = strings.ToValidUTF8(ch[:maxChannelLength], "")
	}
	return ch
}

package rest

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/rest/playground"
)

// servePlayground serves GET /playground (no credentials: the explorer sets
// its application keys in the page's Headers tab).
func servePlayground(c *gin.Context) { playground.Page(c.Writer, c.Request) }

// servePlaygroundAsset serves the playground's embedded scripts and styles
// (an unknown name is the service's 404 error object).
func servePlaygroundAsset(c *gin.Context) {
	if !playground.Asset(c.Writer, c.Request, c.Param("file")) {
		renderError(c, apperr.NotFound("asset", strings.TrimPrefix(c.Param("file"), "/")))
	}
}

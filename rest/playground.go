package rest

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/rest/playground"
)

// servePlayground serves GET /playground (no credentials: the explorer sets
// its application keys in the page's Headers tab).
func servePlayground(c *gin.Context) { playground.Page(c.Writer, c.Request) }

// servePlaygroundAsset serves the playground's embedded scripts and styles.
func servePlaygroundAsset(c *gin.Context) { playground.Asset(c.Writer, c.Request, c.Param("file")) }

package httpkit

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/access"
)

// RequireManagementKeys authenticates X-Management-Id +
// X-Management-Token. Application keys and OAuth tokens are not management
// credentials.
func RequireManagementKeys(c *gin.Context) {
	ctx := c.Request.Context()
	err := access.AuthenticateManagement(ctx, ent.FromContext(ctx),
		c.GetHeader("X-Management-Id"), c.GetHeader("X-Management-Token"))
	if err != nil {
		RenderError(c, err)
		return
	}
	c.Next()
}

// MarkManagement tells the graph the request carries management keys
// (RequireManagementKeys ran before it), so its management fields answer.
func MarkManagement(c *gin.Context) {
	c.Request = c.Request.WithContext(access.WithManagement(c.Request.Context()))
	c.Next()
}

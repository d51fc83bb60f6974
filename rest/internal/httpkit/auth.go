package httpkit

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/access"
)

// AuthenticateManagement checks the request's X-Management-Id +
// X-Management-Token. Application keys and OAuth tokens are not management
// credentials.
func AuthenticateManagement(c *gin.Context) error {
	ctx := c.Request.Context()
	return access.AuthenticateManagement(ctx, ent.FromContext(ctx),
		c.GetHeader("X-Management-Id"), c.GetHeader("X-Management-Token"))
}

// RequireManagementKeys authenticates management keys
// (AuthenticateManagement), refusing with the error object.
func RequireManagementKeys(c *gin.Context) {
	if err := AuthenticateManagement(c); err != nil {
		RenderError(c, err)
		return
	}
	c.Next()
}

// MarkManagement tells the graph the request carries management keys
// (after they authenticated), so its management fields answer.
func MarkManagement(c *gin.Context) {
	c.Request = c.Request.WithContext(access.WithManagement(c.Request.Context()))
	c.Next()
}

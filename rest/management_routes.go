package rest

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/graph"
)

// registerManagement mounts the management area (/management/v1, management
// keys): projects, their branding, users, server- and client-side keys, and
// webhooks (webhooks.go).
// origins learns of trusted-domain changes at once.
func registerManagement(r *gin.Engine, origins *graph.TrustedOrigins) {
	projects := r.Group("/management/v1/projects", requireManagementKeys)
	ph := projectHandlers{origins: origins}
	projects.GET("", ph.list)
	projects.POST("", ph.create)
	projects.GET("/:projectId", ph.get)
	projects.PUT("/:projectId", ph.update)

	mgmt := projects.Group("/:projectId")
	mgmt.POST("/branding", createBranding)
	mgmt.POST("/webhook-token/regenerate", ph.regenerateWebhookToken)
	registerWebhooks(mgmt)
	mgmt.GET("/users", listUsers)
	for path, keys := range map[string]apiKeyHandlers{
		"/api-keys":    {side: appkey.SideSERVER},
		"/client-keys": {side: appkey.SideCLIENT},
	} {
		mgmt.GET(path, keys.list)
		mgmt.POST(path, keys.create)
		mgmt.PUT(path+"/:appId", keys.update)
		mgmt.DELETE(path+"/:appId", keys.delete)
		mgmt.POST(path+"/:appId/block", keys.setStatus(true))
		mgmt.POST(path+"/:appId/unblock", keys.setStatus(false))
		mgmt.POST(path+"/:appId/regenerate", keys.regenerate)
	}
}
